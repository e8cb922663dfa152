/**
 * Per-step timing for the benchmark: `lap(step)` records the time since the
 * previous lap (or `start()`) under `step`, in microseconds.
 */
export class StepClock {
  readonly samples = new Map<string, number[]>();
  private last = 0;

  start(): void {
    this.last = performance.now();
  }

  lap(step: string): void {
    const now = performance.now();
    let list = this.samples.get(step);
    if (!list) {
      list = [];
      this.samples.set(step, list);
    }
    list.push((now - this.last) * 1000);
    this.last = now;
  }
}

/** The median of the samples (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

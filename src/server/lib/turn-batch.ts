/**
 * Work that arrives during one turn of the event loop, done together at the
 * next (`setImmediate`): one statement for every event that came meanwhile
 * instead of one each, so a busy server makes fewer round trips to the
 * database (its largest cost per event, bench/README.md) while an idle one
 * waits for nothing.
 */
export class TurnBatch<Item, Result> {
  private pending: { item: Item; resolve(result: Result): void; reject(error: unknown): void }[] = [];

  /** `run` answers one result per item, in their order; if it throws, every item of the batch fails with its error. */
  constructor(private readonly run: (items: readonly Item[]) => Promise<readonly Result[]>) {}

  add(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      const results = await this.run(batch.map((entry) => entry.item));
      for (const [index, entry] of batch.entries()) entry.resolve(results[index] as Result);
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
}

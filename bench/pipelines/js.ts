/**
 * The plain JavaScript pipeline (`src/client/vision/js-analyser.ts`, the
 * product's fallback without WebAssembly) with its steps timed for the
 * benchmark. The per-pixel work is one fused pass and cannot be split
 * further; the steps after it work on its sums.
 */

import type { FrameResult } from '../../src/client/vision/analyser';
import { JsAnalyser } from '../../src/client/vision/js-analyser';
import type { StepClock } from '../steps';

export { JsAnalyser };

export class TimedJsAnalyser extends JsAnalyser {
  /** Set by the benchmark to time the steps; null when only the total is measured. */
  clock: StepClock | null = null;

  override process(timeMs: number): FrameResult {
    const clock = this.clock;
    if (!clock) return super.process(timeMs);
    this.scan();
    clock.lap('pixel pass');
    this.findFace();
    clock.lap('face');
    this.finishGrid();
    clock.lap('grid');
    this.matchWhitelist();
    clock.lap('whitelist');
    const result = this.decide(timeMs);
    clock.lap('events');
    return result;
  }
}

/**
 * Ask before accusing (docs/rules.md, The check-in): what the camera sees
 * becomes the relay's motion events, but an empty seat is the one judgment
 * whose evidence is weak (a face turned away from the camera is not found
 * either), so the Warden first asks "Are you still with me?". A tap on "I'm
 * here" (or any command), a spoken word, or the face seen again within
 * `CHECK_IN_WINDOW_MS` answers it, and nothing is sent; unanswered, the away
 * event goes with the time it was seen, and the server writes the alert.
 * Everything else (no motion, darkness, nodding judged on the face) is sent
 * at once. A back is sent only after an away that was sent.
 *
 * The analyser already tells an empty seat once (docs/vision.md, Presence):
 * a still seat with no face is away, not also no motion. Nothing here is
 * React; the clock is the vision's `SampleClock`, so tests drive it with
 * fake timers.
 */
import { CHECK_IN_WINDOW_MS } from '../../../shared/constants.ts';
import { SYSTEM_CLOCK, type SampleClock } from '../../vision/sample-timer.ts';
import { motionReports, type AnalysedFrame, type MotionReport } from './jail-camera.ts';

export interface CheckInOptions {
  /** Sends a motion event to the relay, seen at `timeMs`. */
  send(report: MotionReport, timeMs: number): void;
  /** The Warden asks (the screen says the question and shows "I'm here"). */
  onAsk(): void;
  /** The question is over: answered (nothing was sent) or not (the away has been sent). */
  onSettled(answered: boolean): void;
  /** Whether the guest should be in the seat: during a leave or a break an empty seat is no news. */
  inSeat(): boolean;
  clock?: SampleClock;
  windowMs?: number;
}

/** Where the latest away stands until its back. */
type AwayState = 'none' | 'asked' | 'sent' | 'answered';

export class CheckIn {
  private readonly clock: SampleClock;
  private readonly windowMs: number;
  /** The open question: the away it holds and its timer; null while none is open. */
  private asking: { report: MotionReport; timeMs: number; timer: unknown } | null = null;
  private away: AwayState = 'none';

  constructor(private readonly options: CheckInOptions) {
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.windowMs = options.windowMs ?? CHECK_IN_WINDOW_MS;
  }

  /** One analysed frame the worker told of, seen at `timeMs`. */
  frame(frame: AnalysedFrame, timeMs: number): void {
    // The face seen again answers the question an earlier frame raised.
    if (frame.face !== null || frame.events.back) this.answer();
    for (const report of motionReports(frame)) this.take(report, timeMs);
  }

  /** The guest answered: a tap on "I'm here" or a command, a spoken word, or the face seen. */
  answer(): void {
    const asking = this.asking;
    if (asking === null) return;
    this.clock.clearTimeout(asking.timer);
    this.asking = null;
    this.away = 'answered';
    this.options.onSettled(true);
  }

  /** Stops the timer; a question still open is dropped (the page is leaving). */
  dispose(): void {
    if (this.asking !== null) this.clock.clearTimeout(this.asking.timer);
    this.asking = null;
  }

  private take(report: MotionReport, timeMs: number): void {
    switch (report.event) {
      case 'away_event_from_guest':
        // A leave or a break the guest gave: the empty seat was announced.
        if (!this.options.inSeat() || this.asking !== null) return;
        this.away = 'asked';
        this.asking = { report, timeMs, timer: this.clock.setTimeout(() => this.expire(), this.windowMs) };
        this.options.onAsk();
        return;
      case 'back_event_from_guest': {
        const away = this.away;
        this.away = 'none';
        if (away === 'sent') this.options.send(report, timeMs);
        return;
      }
      default:
        this.options.send(report, timeMs);
    }
  }

  /** Nobody answered within the window: the away is sent. */
  private expire(): void {
    const asking = this.asking;
    if (asking === null) return;
    this.asking = null;
    this.away = 'sent';
    this.options.send(asking.report, asking.timeMs);
    this.options.onSettled(false);
  }
}

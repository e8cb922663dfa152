/**
 * Ask before accusing (docs/rules.md, The check-in): what the camera sees
 * becomes the relay's motion events, but where the evidence is weak (away,
 * nodding seen on the motion alone) the Warden first asks "Are you still with
 * me?". A tap on "I'm here" (or any command), a spoken word, or the face
 * seen again within `CHECK_IN_WINDOW_MS` answers it, and nothing is sent;
 * unanswered, the events go as they would have, with the time they were
 * seen, and the server writes the alert. Strong evidence (no motion,
 * darkness, nodding followed on the face) is sent at once.
 *
 * An empty seat is told once: an away and a no-motion event for the same
 * still spell never both accuse the guest (away wins), and a back is sent
 * only after an away that was sent. Nothing here is React; the clock is the
 * vision's `SampleClock`, so tests drive it with fake timers.
 */
import { CHECK_IN_WINDOW_MS } from '../../../shared/constants.ts';
import { SYSTEM_CLOCK, type SampleClock } from '../../vision/sample-timer.ts';
import { motionReports, type AnalysedFrame, type MotionReport } from './jail-camera.ts';

/** What the Warden asks about: the seat looked empty, or nodding seen without the face. */
export type CheckInReason = 'away' | 'nodding';

export interface CheckInOptions {
  /** Sends a motion event to the relay, seen at `timeMs`. */
  send(report: MotionReport, timeMs: number): void;
  /** The Warden asks (the screen says the question and shows "I'm here"). */
  onAsk(reason: CheckInReason): void;
  /** The question is over: answered (nothing was sent) or not (what it held has been sent). */
  onSettled(answered: boolean): void;
  /** Whether the guest should be in the seat: during a leave or a break an empty seat is no news. */
  inSeat(): boolean;
  clock?: SampleClock;
  windowMs?: number;
}

/** Where the latest away stands until its back. */
type AwayState = 'none' | 'asked' | 'sent' | 'answered';

interface Seen {
  report: MotionReport;
  timeMs: number;
}

export class CheckIn {
  private readonly clock: SampleClock;
  private readonly windowMs: number;
  /** The open question: the weak reports it holds, oldest first, and its timer; null while none is open. */
  private asking: { held: Seen[]; timer: unknown } | null = null;
  private away: AwayState = 'none';
  /** A no-motion event seen while the seat looked empty, until it is clear whether it is the away's to tell. */
  private heldNoMotion: Seen | null = null;

  constructor(private readonly options: CheckInOptions) {
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.windowMs = options.windowMs ?? CHECK_IN_WINDOW_MS;
  }

  /** One analysed frame the worker told of, seen at `timeMs`. */
  frame(frame: AnalysedFrame, timeMs: number): void {
    const faceSeen = frame.face !== null;
    // The face seen again answers the question an earlier frame raised.
    if (faceSeen || frame.events.back) this.answer();
    this.settleHeldNoMotion(frame, faceSeen);
    for (const report of motionReports(frame)) this.take(report, frame, timeMs);
  }

  /** The guest answered: a tap on "I'm here" or a command, or a spoken word. */
  answer(): void {
    const asking = this.asking;
    if (asking === null) return;
    this.clock.clearTimeout(asking.timer);
    this.asking = null;
    if (this.away === 'asked') this.away = 'answered';
    this.options.onSettled(true);
  }

  /** Stops the timer; a question still open is dropped (the page is leaving). */
  dispose(): void {
    if (this.asking !== null) this.clock.clearTimeout(this.asking.timer);
    this.asking = null;
    this.heldNoMotion = null;
  }

  /** A held no-motion event: the away tells the empty seat; a face seen means the guest sat still; motion without a face drops it. */
  private settleHeldNoMotion(frame: AnalysedFrame, faceSeen: boolean): void {
    const held = this.heldNoMotion;
    if (held === null) return;
    if (frame.events.away) this.heldNoMotion = null;
    else if (faceSeen) {
      this.heldNoMotion = null;
      this.options.send(held.report, held.timeMs);
    } else if (frame.events.motion) this.heldNoMotion = null;
  }

  private take(report: MotionReport, frame: AnalysedFrame, timeMs: number): void {
    switch (report.event) {
      case 'away_event_from_guest':
        // A leave or a break the guest gave: the empty seat was announced.
        if (!this.options.inSeat()) return;
        this.away = 'asked';
        this.ask('away', { report, timeMs });
        return;
      case 'back_event_from_guest': {
        const away = this.away;
        this.away = 'none';
        if (away === 'sent') this.options.send(report, timeMs);
        return;
      }
      case 'no_motion_event_from_guest':
        // The same empty seat as an away already told or being asked about.
        if (this.away === 'asked' || this.away === 'sent') return;
        // Nobody in sight: wait for the away (which then tells it) or for the face.
        if (frame.faceDetector && frame.face === null) {
          this.heldNoMotion = { report, timeMs };
          return;
        }
        this.options.send(report, timeMs);
        return;
      default:
        if (report.evidence === 'weak') this.ask('nodding', { report, timeMs });
        else this.options.send(report, timeMs);
    }
  }

  /** Opens the question, or adds to the one open (one question at a time). */
  private ask(reason: CheckInReason, seen: Seen): void {
    if (this.asking !== null) {
      this.asking.held.push(seen);
      return;
    }
    this.asking = { held: [seen], timer: this.clock.setTimeout(() => this.expire(), this.windowMs) };
    this.options.onAsk(reason);
  }

  /** Nobody answered within the window: what the question held is sent. */
  private expire(): void {
    const asking = this.asking;
    if (asking === null) return;
    this.asking = null;
    if (this.away === 'asked') this.away = 'sent';
    for (const { report, timeMs } of asking.held) this.options.send(report, timeMs);
    this.options.onSettled(false);
  }
}

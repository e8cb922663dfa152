/**
 * The event rules of docs/vision.md ("Events", "Presence", "Nodding",
 * "Darkness") in plain JavaScript, as `crates/vision/src/events.rs` states
 * them: what a frame's facts make due, each event at most once per episode.
 * The JavaScript analyser and the OpenCV.js peer of the benchmark keep their
 * runs here, so that every pipeline does the same bookkeeping as the crate.
 */

import { eventsFromBits, type FrameResult } from './analyser';
import { EVENT_AWAY, EVENT_BACK, EVENT_DARKNESS, EVENT_MOTION, EVENT_NO_MOTION, EVENT_NODDING } from './layout.generated';
import {
  AWAY_COUNT_S,
  AWAY_COUNT_SLEEPER_S,
  DARKNESS_COUNT_S,
  FRAME_INTERVAL_MS,
  MAX_FRAME_GAP_MS,
  NO_MOTION_COUNT_S,
  NO_MOTION_COUNT_SLEEPER_S,
  NO_MOTION_THRESHOLD,
  NO_MOTION_THRESHOLD_IOS,
  NOD_FACE_DROP,
  NOD_FACE_SINK_STEP,
  NOD_WINDOW_MS,
  NODDING_COUNT,
} from './params.generated';

/** Nods older than the window are dropped; this bounds the queue however fast frames come (events.rs). */
const MAX_NODS = 64;

/** A face found in a frame, in fractions of the frame's height. */
interface FaceFact {
  /** The centre's vertical position. */
  y: number;
  /** The side. */
  size: number;
}

/** What the rules need to know about one frame. */
export interface FrameFacts {
  timeMs: number;
  hasPrevious: boolean;
  motionScore: number;
  dark: boolean;
  whitelisted: boolean;
  /** Whether faces are looked for at all (a face model is loaded): without it an absent face says nothing. */
  faceDetector: boolean;
  face: FaceFact | null;
}

interface Outcome {
  events: number;
  /** Reversals of the head in the nods of the nod window. */
  noddingCount: number;
  lowMotionMs: number;
  darkMs: number;
  noFaceMs: number;
}

/** A run in ms as the wasm result record carries it: a `u32`. */
function runMillis(ms: number): number {
  return Math.min(Math.floor(ms), 0xffff_ffff);
}

/** The result fields the rules decide, as the wasm result record carries them. */
export function ruledFields(outcome: Outcome): Pick<FrameResult, 'noddingCount' | 'lowMotionMs' | 'darkMs' | 'noFaceMs' | 'events'> {
  return {
    noddingCount: outcome.noddingCount,
    lowMotionMs: runMillis(outcome.lowMotionMs),
    darkMs: runMillis(outcome.darkMs),
    noFaceMs: runMillis(outcome.noFaceMs),
    events: eventsFromBits(outcome.events),
  };
}

export class SessionEvents {
  private readonly noMotionThreshold: number;
  private readonly noMotionMs: number;
  private readonly awayMs: number;
  private lastTimeMs: number | null = null;
  private lowMotionMs = 0;
  private darkMs = 0;
  private noFaceMs = 0;
  private noMotionEpisode = false;
  private darknessEpisode = false;
  private noddingEpisode = false;
  private awayEpisode = false;
  /** The last face found, for the nods. */
  private lastFace: { timeMs: number; y: number } | null = null;
  /** Where the face was when its current sink began, and the sink's steps so far. */
  private sinkTopY = 0;
  private sinkSteps = 0;
  private readonly nods: number[] = [];

  constructor(options: { ios: boolean; sleeper: boolean }) {
    this.noMotionThreshold = options.ios ? NO_MOTION_THRESHOLD_IOS : NO_MOTION_THRESHOLD;
    this.noMotionMs = (options.sleeper ? NO_MOTION_COUNT_SLEEPER_S : NO_MOTION_COUNT_S) * 1000;
    this.awayMs = (options.sleeper ? AWAY_COUNT_SLEEPER_S : AWAY_COUNT_S) * 1000;
  }

  update(facts: FrameFacts): Outcome {
    const elapsed = this.lastTimeMs === null ? FRAME_INTERVAL_MS : Math.min(Math.max(facts.timeMs - this.lastTimeMs, 0), MAX_FRAME_GAP_MS);
    this.lastTimeMs = facts.timeMs;
    const found = facts.face !== null;
    let events = 0;

    // Away: no face where one could be seen. A dark frame can hide a face,
    // so it pauses the run (the darkness rule speaks for it).
    if (found || facts.whitelisted || !facts.faceDetector) this.noFaceMs = 0;
    else if (!facts.dark) this.noFaceMs += elapsed;
    if (found && this.awayEpisode) {
      events |= EVENT_BACK;
      this.awayEpisode = false;
    }
    if (!this.awayEpisode && this.noFaceMs >= this.awayMs) {
      events |= EVENT_AWAY;
      this.awayEpisode = true;
    }

    const moving = facts.hasPrevious && facts.motionScore >= this.noMotionThreshold;
    const lowMotion = facts.hasPrevious && !facts.whitelisted && !moving;
    this.lowMotionMs = lowMotion ? this.lowMotionMs + elapsed : 0;
    if (this.noMotionEpisode && moving) {
      events |= EVENT_MOTION;
      this.noMotionEpisode = false;
    }
    if (lowMotion && !this.noMotionEpisode && this.lowMotionMs >= this.noMotionMs) {
      // An empty seat is one accusation: the away event speaks for it.
      const seatEmpty = this.awayEpisode && this.noFaceMs >= this.lowMotionMs;
      if (!seatEmpty) events |= EVENT_NO_MOTION;
      this.noMotionEpisode = true;
    }

    // A face found is light enough to watch.
    const countsAsDark = facts.dark && !facts.whitelisted && !found;
    this.darkMs = countsAsDark ? this.darkMs + elapsed : 0;
    if (!facts.dark || found) this.darknessEpisode = false;
    if (countsAsDark && !this.darknessEpisode && this.darkMs >= DARKNESS_COUNT_S * 1000) {
      events |= EVENT_DARKNESS;
      this.darknessEpisode = true;
    }

    this.followFace(facts);
    const expired = this.nods.findIndex((time) => facts.timeMs - time < NOD_WINDOW_MS);
    this.nods.splice(0, expired < 0 ? this.nods.length : expired);
    // In reversals of the head: a nod is two, and each nod after the first turns down again.
    const noddingCount = Math.max(2 * this.nods.length - 1, 0);
    if (noddingCount === 0) this.noddingEpisode = false;
    if (noddingCount >= NODDING_COUNT && !this.noddingEpisode) {
      events |= EVENT_NODDING;
      this.noddingEpisode = true;
    }
    return { events, noddingCount, lowMotionMs: this.lowMotionMs, darkMs: this.darkMs, noFaceMs: this.noFaceMs };
  }

  /** A nod is a face that sank in two consecutive samples or more and jerked back up in one (events.rs, `follow_face`). */
  private followFace(facts: FrameFacts): void {
    const face = facts.faceDetector ? facts.face : null;
    if (face === null) return;
    const last = this.lastFace;
    if (last !== null && facts.timeMs - last.timeMs <= MAX_FRAME_GAP_MS) {
      const drop = face.y - last.y;
      const sunk = last.y - this.sinkTopY;
      if (-drop >= NOD_FACE_DROP * face.size && this.sinkSteps >= 2 && sunk >= NOD_FACE_DROP * face.size) {
        if (this.nods.length === MAX_NODS) this.nods.shift();
        this.nods.push(facts.timeMs);
      }
      if (drop >= NOD_FACE_SINK_STEP * face.size) {
        if (this.sinkSteps === 0) this.sinkTopY = last.y;
        this.sinkSteps++;
      } else {
        this.sinkSteps = 0;
      }
    } else {
      this.sinkSteps = 0;
    }
    this.lastFace = { timeMs: facts.timeMs, y: face.y };
  }
}

/**
 * What each simulated guest of `bench:relay` sends: the one home of the
 * mixes and of where their figures come from. bench/relay-load.ts plays a
 * mix; bench/relay.ts names it and checks that its patrols stay within a
 * jail's limit over the run.
 */

import { isPatrolDue, type PatrolState } from '../src/client/features/jail/session-rules.ts';
import { ALIVE_CHECK_INTERVAL_MS, PATROL_CHECK_INTERVAL_MS, PATROL_MAX_LOGS_PER_SESSION } from '../src/shared/constants.ts';
import type { MotionEventName } from '../src/shared/jail-vocabulary.ts';

export const MIX_NAMES = ['stress', 'real'] as const;
export type MixName = (typeof MIX_NAMES)[number];

/** How a guest's patrol images come: on a fixed period, or by the live page's own rule (a check every 10 s, by chance). */
type PatrolPlan = { kind: 'every'; periodMs: number } | { kind: 'by-chance' };

/** A motion event the guest sends on a period: its event and the motion `type` it carries (0 with no motion, an alert). */
interface MotionPlan {
  event: MotionEventName;
  type: 0 | 1;
  periodMs: number;
}

export interface Mix {
  /** Where the figures come from. */
  source: string;
  motion: MotionPlan;
  alivePeriodMs: number;
  patrol: PatrolPlan;
}

export const MIXES: Record<MixName, Mix> = {
  // Far more than a page sends: a motion event a second (no alert), to find where the relay saturates.
  stress: {
    source: 'a motion event a second (motion_event_from_guest, no alert), the alive check every 30 s, a patrol image every 10 s',
    motion: { event: 'motion_event_from_guest', type: 1, periodMs: 1_000 },
    alivePeriodMs: ALIVE_CHECK_INTERVAL_MS,
    patrol: { kind: 'every', periodMs: 10_000 },
  },
  // A live page as measured in Chromium (bench/README.md, Live page traffic: two 10-minute runs, a moving and a
  // still scene): the alive check 2 a minute; patrols by the page's own rule (the first 10 s after the camera
  // opens, then by chance, about one in 4.8 minutes: 0.2-0.3 a minute measured); motion events only once per
  // episode, 0.1 a minute, each an alert (a still guest's no-motion after 180 s). An alert a 10 minutes stays
  // under the 4 in 20 minutes that end a jail.
  real: {
    source:
      'a live page measured in Chromium (bench/README.md, Live page traffic): alive 2/min, patrols by the page rule (~0.2/min), an alert motion event 0.1/min',
    motion: { event: 'no_motion_event_from_guest', type: 0, periodMs: 600_000 },
    alivePeriodMs: ALIVE_CHECK_INTERVAL_MS,
    patrol: { kind: 'by-chance' },
  },
};

/** The patrol checks of one guest: answers at each check whether it sends an image now, at most a jail's limit. */
export class PatrolSchedule {
  private state: PatrolState;

  constructor(
    private readonly plan: PatrolPlan,
    setupAt: number,
  ) {
    this.state = { setupAt, lastPatrolAt: null, taken: 0 };
  }

  /** How often the guest checks. */
  get checkPeriodMs(): number {
    return this.plan.kind === 'every' ? this.plan.periodMs : PATROL_CHECK_INTERVAL_MS;
  }

  /** At a check: whether an image goes now (and it is counted). */
  due(now: number): boolean {
    const due = this.plan.kind === 'every' ? this.state.taken < PATROL_MAX_LOGS_PER_SESSION : isPatrolDue(this.state, now, Math.random());
    if (due) this.state = { ...this.state, lastPatrolAt: now, taken: this.state.taken + 1 };
    return due;
  }
}

/**
 * The longest run (from a guest's connection to the end) in which the mix
 * keeps its rates: a fixed patrol period stops at a jail's limit of 30
 * images (the by-chance rule slows down by itself long before).
 */
export function steadyForMs(mix: Mix): number {
  return mix.patrol.kind === 'every' ? mix.patrol.periodMs * PATROL_MAX_LOGS_PER_SESSION : Number.POSITIVE_INFINITY;
}

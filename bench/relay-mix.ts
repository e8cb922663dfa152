/**
 * What each simulated guest of `bench:relay` sends: the one home of the
 * mixes and of where their figures come from. bench/relay-load.ts plays a
 * mix; bench/relay.ts names it and checks that its patrols stay within a
 * jail's limit over the run.
 */

import { isPatrolDue, type PatrolState } from '../src/client/features/jail/session-rules.ts';
import { ALIVE_CHECK_INTERVAL_MS, PATROL_CHECK_INTERVAL_MS, PATROL_MAX_LOGS_PER_SESSION } from '../src/shared/constants.ts';

export const MIX_NAMES = ['stress', 'real'] as const;
export type MixName = (typeof MIX_NAMES)[number];

/** How a guest's patrol images come: on a fixed period, or by the live page's own rule (a check every 10 s, by chance). */
type PatrolPlan = { kind: 'every'; periodMs: number } | { kind: 'by-chance' };

export interface Mix {
  /** Where the figures come from. */
  source: string;
  /** A `motion_event_from_guest` (type 1, no alert) this often; null: none. */
  motionPeriodMs: number | null;
  alivePeriodMs: number;
  patrol: PatrolPlan;
}

export const MIXES: Record<MixName, Mix> = {
  // Far more than a page sends: every event kind at a fixed rate, to find where the relay saturates.
  stress: {
    source: 'bench:relay since its first version: a motion event a second, the alive check, a patrol image every 10 s',
    motionPeriodMs: 1_000,
    alivePeriodMs: ALIVE_CHECK_INTERVAL_MS,
    patrol: { kind: 'every', periodMs: 10_000 },
  },
  // The live page (src/client/features/jail): the alive check on its interval (useGuestRelay.ts), the
  // patrol check every 10 s with its chance rule (useJailCamera.ts, session-rules.ts: the first image 10 s
  // after the camera opens, then minutes-since-the-last / 90, at most 30 a jail; about one in 4.8 minutes),
  // and motion only on a change (the vision worker reports motion after a no-motion run of 180 s, docs/vision.md).
  real: {
    source: 'the live page code: src/client/features/jail (alive, patrol rule) and docs/vision.md (motion on a change)',
    motionPeriodMs: 180_000,
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

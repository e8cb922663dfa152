/**
 * The jail's vocabulary (docs/words.md): the words both sides and the
 * protocol use for what happens in a jail. Only names live here, no
 * schemas: the relay (relay.ts) and the reservation calls (api/reservation.ts)
 * build their schemas from them, so neither imports the other for a word.
 */

/** Jail statuses of a guest during a session (docs/jail.md, Commands). */
export const JAIL_STATUSES = ['injail', 'leaving', 'breaking'] as const;
export type JailStatus = (typeof JAIL_STATUSES)[number];

/**
 * What a motion log reports: the camera's events (docs/vision.md, Events),
 * and `away` (no face for the no-motion count: the seat looked empty) and
 * `back` (a face again after an away).
 */
export const MOTION_KINDS = ['motion', 'no_motion', 'nodding', 'darkness', 'away', 'back'] as const;
export type MotionKind = (typeof MOTION_KINDS)[number];

/** The motion events (docs/vision.md, Events; away and back: docs/jail.md, Away and back) and what each reports. */
export const MOTION_EVENTS = {
  motion_event_from_guest: 'motion',
  no_motion_event_from_guest: 'no_motion',
  nodding_motion_event_from_guest: 'nodding',
  darkness_event_from_guest: 'darkness',
  away_event_from_guest: 'away',
  back_event_from_guest: 'back',
} as const satisfies Record<string, MotionKind>;
export type MotionEventName = keyof typeof MOTION_EVENTS;

/** The kinds of motion that count as an alert inside a jail. */
export const ALERT_MOTION_KINDS = ['no_motion', 'nodding', 'darkness', 'away'] as const satisfies readonly MotionKind[];

/** An alert inside a jail: a motion alert or a leave or break over its allowance. */
export const ALERT_KINDS = [...ALERT_MOTION_KINDS, 'leave_overrun', 'break_overrun'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const FINISH_KINDS = ['ended', 'early', 'forced', 'warden', 'ignored'] as const;
/**
 * How a jail finished: at its end time, early by the guest (with a reason),
 * forced by alerts, by a warden, or never entered (ignored).
 */
export type FinishKind = (typeof FINISH_KINDS)[number];

/**
 * Who said a warden's line (docs/words.md): the virtual Warden (the eye) or
 * a human warden from the console, by role and never by name.
 */
export const SPEAKERS = ['virtual', 'human'] as const;
export type Speaker = (typeof SPEAKERS)[number];

/**
 * The report as a picture (docs/client.md, The report): the jail's time cut
 * into segments in the seat, on a leave, away and on a break, the moments worth marking
 * on it, and the counts the summary adds to the server's figures. Pure: the
 * figures of time come from the reservation's `jail` (the jail's row, one
 * definition of focused time), the shape from the logs.
 */
import type { ActivityLog, JailSummary } from '../../../shared/api/reservation.ts';
import { MINUTE_MS } from '../../../shared/durations.ts';
import type { PlanStep } from '../reservations/plan.ts';
import { ALERT_MOTION_KINDS, type JailStatus, type Speaker } from '../../../shared/jail-vocabulary.ts';

/**
 * What the guest was doing over a stretch of the jail: in the seat, on a
 * leave (command 1), away (the camera found the seat empty, from the away
 * event to the back event), on a break; `waiting` before coming in, `ended`
 * after an early finish.
 */
export type SegmentKind = 'seat' | 'leave' | 'away' | 'break' | 'waiting' | 'ended';

export interface Segment {
  kind: SegmentKind;
  from: number;
  to: number;
}

/** The camera's alerts, marked on the timeline (the shared list of motion alerts). */
type AlertMarkerKind = (typeof ALERT_MOTION_KINDS)[number];

/** A moment marked on the timeline: a camera alert, words said (by the Warden, a human warden or the guest), a patrol image. */
export type MarkerKind = AlertMarkerKind | 'warden' | 'human' | 'guest' | 'patrol' | 'step';

/** The marker of words said: the guest's, or a warden's by who spoke (a line logged before the speaker was recorded reads as the Warden's). */
function wordsMarker(type: 0 | 1, by: Speaker | undefined): MarkerKind {
  if (type === 0) return 'guest';
  return by === 'human' ? 'human' : 'warden';
}

/** Whether a marker is one of the camera's alerts (pinned on a row of its own). */
export function isAlertMarker(kind: string): kind is AlertMarkerKind {
  return (ALERT_MOTION_KINDS as readonly string[]).includes(kind);
}

export interface Marker {
  kind: MarkerKind;
  time: number;
  /** The words said, for the Warden's and the guest's; the image, for a patrol. */
  text?: string;
  image?: string;
}

const SEGMENT_OF_STATUS: Record<JailStatus, SegmentKind> = { injail: 'seat', leaving: 'leave', breaking: 'break' };

/** Adds [from, to) of `kind`, merged into the last segment when it is the same kind; empty stretches are dropped. */
function push(segments: Segment[], kind: SegmentKind, from: number, to: number): void {
  if (to <= from) return;
  const last = segments.at(-1);
  if (last !== undefined && last.kind === kind && last.to === from) last.to = to;
  else segments.push({ kind, from, to });
}

/**
 * The jail from its start to its planned end: waiting until the guest came
 * in (an ignored jail waits throughout), then in the seat, on a leave or on a
 * break as the status logs say, away in the seat's time from an away event
 * to the back event (or a change of status, or the finish), then ended if it
 * finished early.
 */
export function segmentsOf(logs: readonly ActivityLog[], jail: Pick<JailSummary, 'enteredAt' | 'finishedAt'>, startTime: number, endTime: number): Segment[] {
  const segments: Segment[] = [];
  const finish = Math.min(Math.max(jail.finishedAt, startTime), endTime);
  if (jail.enteredAt === null) {
    push(segments, 'waiting', startTime, finish);
  } else {
    let since = Math.min(Math.max(jail.enteredAt, startTime), finish);
    push(segments, 'waiting', startTime, since);
    let status: SegmentKind = 'seat';
    let away = false;
    const kindNow = (): SegmentKind => (away && status === 'seat' ? 'away' : status);
    for (const log of logs) {
      const awayChange = log.type === 'motion' && (log.motion.kind === 'away' || log.motion.kind === 'back');
      if (log.type !== 'status' && !awayChange) continue;
      const at = Math.min(Math.max(log.time, since), finish);
      push(segments, kindNow(), since, at);
      if (log.type === 'status') {
        status = SEGMENT_OF_STATUS[log.status.jailStatus];
        // A command given on the device: the guest is there, whatever the camera last said.
        away = false;
      } else {
        away = log.type === 'motion' && log.motion.kind === 'away';
      }
      since = at;
    }
    push(segments, kindNow(), since, finish);
  }
  push(segments, 'ended', finish, endTime);
  return segments;
}

/** The moments to mark: alerts the camera raised, words said, patrol images. Plain motion and the rest are left to the log. */
export function markersOf(logs: readonly ActivityLog[]): Marker[] {
  return logs.flatMap((log): Marker[] => {
    switch (log.type) {
      case 'motion': {
        const kind = log.motion.kind ?? (log.motion.type === 1 ? 'motion' : 'no_motion');
        // Motion again and back are no alerts: back ends the away segment instead.
        return isAlertMarker(kind) ? [{ kind, time: log.time }] : [];
      }
      case 'dialog':
        if (log.dialog.type === 2) return [];
        return [{ kind: wordsMarker(log.dialog.type, log.dialog.by), time: log.time, text: log.dialog.text }];
      case 'callup':
        // A callup comes from a human warden at the console.
        return [{ kind: 'human', time: log.time, text: log.callup.text }];
      case 'patrol':
        return [{ kind: 'patrol', time: log.time, image: log.patrol.data }];
      default:
        return [];
    }
  });
}

/** The steps of the guest's plan that began before the jail finished, marked at their minutes with their titles. */
export function stepMarkers(steps: readonly PlanStep[], finishedAt: number): Marker[] {
  return steps.flatMap((step): Marker[] => (step.at < finishedAt ? [{ kind: 'step', time: step.at, text: step.title }] : []));
}

/** Every marker in time order (the logs' and the plan's). */
export function inTimeOrder(markers: readonly Marker[]): Marker[] {
  return [...markers].sort((a, b) => a.time - b.time);
}

/** How many times the guest left the seat and took a break. */
export function pauseCounts(logs: readonly ActivityLog[]): { leaves: number; breaks: number } {
  let leaves = 0;
  let breaks = 0;
  for (const log of logs) {
    if (log.type !== 'status') continue;
    if (log.status.jailStatus === 'leaving') leaves += 1;
    if (log.status.jailStatus === 'breaking') breaks += 1;
  }
  return { leaves, breaks };
}

/** Where `time` falls between `startTime` and `endTime`, as a share from 0 to 1. */
export function shareOf(time: number, startTime: number, endTime: number): number {
  if (endTime <= startTime) return 0;
  return Math.min(1, Math.max(0, (time - startTime) / (endTime - startTime)));
}

/** Milliseconds as whole minutes, rounded down (a report never claims a minute not spent). */
export function wholeMinutes(ms: number): number {
  return Math.floor(ms / MINUTE_MS);
}

/** The segment each marker falls in (the last one for a marker at the very end), for the list that reads the timeline out. */
export function markersBySegment(segments: readonly Segment[], markers: readonly Marker[]): Marker[][] {
  const grouped = segments.map((): Marker[] => []);
  for (const marker of markers) {
    const index = segments.findIndex((segment) => marker.time < segment.to);
    const at = index === -1 ? segments.length - 1 : index;
    grouped[at]?.push(marker);
  }
  return grouped;
}

/** Why the jail ended early, as the guest or a human warden wrote it: the last instruction log; null without one. */
export function finishReason(logs: readonly ActivityLog[]): string | null {
  let reason: string | null = null;
  for (const log of logs) if (log.type === 'instruction') reason = log.instruction.text;
  return reason;
}

/** What a jail may have had that the report says in words it did not have, rather than leave an empty row. */
export type AbsentPart = 'alerts' | 'words' | 'plan' | 'patrols';

/** The parts missing from a jail's markers (its plan counted as booked, even when the jail ended before a step). */
export function absentParts(markers: readonly Marker[], planSteps: number): AbsentPart[] {
  const has = (test: (kind: MarkerKind) => boolean) => markers.some((marker) => test(marker.kind));
  const present: Record<AbsentPart, boolean> = {
    alerts: has(isAlertMarker),
    words: has((kind) => kind === 'warden' || kind === 'human' || kind === 'guest'),
    plan: planSteps > 0,
    patrols: has((kind) => kind === 'patrol'),
  };
  return (Object.keys(present) as AbsentPart[]).filter((part) => !present[part]);
}

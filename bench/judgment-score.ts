/**
 * Scoring of `npm run bench:judgment` (bench/judgment.ts): what counts as a
 * false alert, an away noticed in time, a doze caught and a face found,
 * against the labels of bench/footage. Pure functions over label sequences,
 * tested in judgment-score.test.ts.
 */

import type { Activity, DozeEpisode, FaceBox } from './footage/script.ts';

export type AlertKind = 'nodding' | 'noMotion' | 'away' | 'darkness';

export interface Alert {
  second: number;
  kind: AlertKind;
}

/** What an alert of each kind is excused by: the activity it reports, seen within this many seconds before it. */
const EXCUSES: Record<AlertKind, { by: readonly Activity[]; withinS: number }> = {
  // The nodding count looks back 15 s: a doze that just ended may still complete it.
  nodding: { by: ['dozing'], withinS: 15 },
  noMotion: { by: ['away', 'dozing'], withinS: 5 },
  away: { by: ['away'], withinS: 5 },
  darkness: { by: [], withinS: 0 },
};

/** Alerts that accuse a person who works: at a second labelled `working`, with no excusing activity just before. */
export function falseAlerts(activities: readonly Activity[], alerts: readonly Alert[]): Alert[] {
  return alerts.filter(({ second, kind }) => {
    if (activities[second] !== 'working') return false;
    const excuse = EXCUSES[kind];
    for (let back = 1; back <= excuse.withinS && second - back >= 0; back++) {
      if (excuse.by.includes(activities[second - back])) return false;
    }
    return true;
  });
}

export interface AwaySpell {
  /** First second with nobody there. */
  start: number;
  /** Seconds with nobody there. */
  seconds: number;
  /** Seconds from the spell's start to its away event, counting the event's own second (null: none in the spell). */
  latencyS: number | null;
}

/**
 * Every stretch of `away` at least `countS` long, and when its away event
 * came: an analyser counting a second a frame fires on the spell's
 * `countS`-th second, a latency of `countS`.
 */
export function awaySpells(activities: readonly Activity[], alerts: readonly Alert[], countS: number): AwaySpell[] {
  const spells: AwaySpell[] = [];
  let start = -1;
  for (let second = 0; second <= activities.length; second++) {
    const away = second < activities.length && activities[second] === 'away';
    if (away && start < 0) start = second;
    if (!away && start >= 0) {
      const seconds = second - start;
      if (seconds >= countS) {
        const event = alerts.find((alert) => alert.kind === 'away' && alert.second >= start && alert.second < second);
        spells.push({ start, seconds, latencyS: event === undefined ? null : event.second - start + 1 });
      }
      start = -1;
    }
  }
  return spells;
}

/** Whether an away spell was noticed within the count and `slackS`. */
export function noticedInTime(spell: AwaySpell, countS: number, slackS: number): boolean {
  return spell.latencyS !== null && spell.latencyS <= countS + slackS;
}

/** Seconds after a doze episode's end within which its nodding event still counts. */
export const DOZE_GRACE_S = 5;

/** Each doze episode with the second of the first nodding event in it (or up to DOZE_GRACE_S after), or null. */
export function dozesCaught(dozes: readonly DozeEpisode[], alerts: readonly Alert[]): { episode: DozeEpisode; caughtAt: number | null }[] {
  return dozes.map((episode) => {
    const alert = alerts.find(
      (candidate) => candidate.kind === 'nodding' && candidate.second >= episode.start && candidate.second < episode.end + DOZE_GRACE_S,
    );
    return { episode, caughtAt: alert === undefined ? null : alert.second };
  });
}

/** A face the analyser reports: centre as fractions of width and height, side as a fraction of the width. */
export interface FoundFace {
  x: number;
  y: number;
  size: number;
}

/** Faces of at least this many pixels count towards the recall. */
export const RECALL_MIN_SIDE_PX = 40;

/** Whether `found` is the labelled face: its centre within half a side of the label's on both axes, its side within a factor of 2. */
export function matchesFace(label: FaceBox, found: FoundFace, width: number, height: number): boolean {
  const side = found.size * width;
  return (
    Math.abs(found.x * width - label.x) <= label.side / 2 &&
    Math.abs(found.y * height - label.y) <= label.side / 2 &&
    side >= label.side / 2 &&
    side <= label.side * 2
  );
}

import { createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ActivityLogEntry, LiveJail } from '../../shared/relay.ts';
import { signedOut } from './sessionSlice.ts';

/** A log of a jail as the relay sends it: with its row id. */
export type JailLog = ActivityLogEntry & { id: number };

export interface OpenJail {
  reservationId: number;
  /** `opening` until `open_jail_from_warden` is acked. */
  phase: 'opening' | 'open';
  /** The jail as the ack gave it; the live list has the newer state while it is live. */
  jail: LiveJail | null;
  /** Oldest first, each id once. */
  logs: JailLog[];
  /** Whether the jail has logs before the oldest of `logs` (read a page at a time, docs/jail.md). */
  hasEarlier: boolean;
  /** Patrol logs approved from this console. */
  approvedPatrolLogIds: number[];
}

/**
 * The console's relay: `connecting` at first, `connected`, then
 * `reconnecting` whenever it drops (a server restarting, a network gone),
 * until it is back. Why it dropped is socket.io's business, never the
 * warden's.
 */
export type RelayStatus = 'connecting' | 'connected' | 'reconnecting';

export interface ConsoleState {
  liveJails: LiveJail[];
  /**
   * How far the server's clock is ahead of this browser's (negative:
   * behind), from the server time of the latest update; keeps the time left
   * right whatever this browser's clock says.
   */
  serverAheadMs: number;
  openJail: OpenJail | null;
  relay: RelayStatus;
  /** The latest failure to show the warden (a refused ack, an unreachable relay). */
  error: string | null;
}

const initialState: ConsoleState = {
  liveJails: [],
  serverAheadMs: 0,
  openJail: null,
  relay: 'connecting',
  error: null,
};

/** A page of a jail's logs as the relay answers it: oldest first, and whether earlier ones remain. */
interface LogPage {
  logs: JailLog[];
  hasEarlier: boolean;
}

function byTimeThenId(left: JailLog, right: JailLog): number {
  return left.time - right.time || left.id - right.id;
}

/** `logs` with `added` merged in: each id once (a later copy wins), oldest first. */
export function mergeLogs(logs: readonly JailLog[], added: readonly JailLog[]): JailLog[] {
  const byId = new Map(logs.map((log) => [log.id, log]));
  for (const log of added) byId.set(log.id, log);
  return [...byId.values()].sort(byTimeThenId);
}

function latestAlertTime(jail: LiveJail): number {
  return jail.alerts.reduce((latest, alert) => Math.max(latest, alert.time), 0);
}

/**
 * The order of the grid: jails with alerts first (more alerts, then the most
 * recent alert, first), then the rest by start time; the reservation id
 * breaks ties so that equal jails never swap places between updates.
 */
export function compareLiveJails(left: LiveJail, right: LiveJail): number {
  return (
    right.alerts.length - left.alerts.length ||
    latestAlertTime(right) - latestAlertTime(left) ||
    left.startTime - right.startTime ||
    left.reservationId - right.reservationId
  );
}

/**
 * What a card says of the guest's seat: the jail status and since when, or
 * away (the camera found the seat empty) while the guest is in the jail and
 * no back has come since the away event.
 */
export function seatOf(jail: Pick<LiveJail, 'jailStatus' | 'statusSince' | 'awaySince'>): { state: LiveJail['jailStatus'] | 'away'; since: number } {
  if (jail.jailStatus === 'injail' && jail.awaySince !== null) return { state: 'away', since: jail.awaySince };
  return { state: jail.jailStatus, since: jail.statusSince };
}

export const consoleSlice = createSlice({
  name: 'console',
  initialState,
  reducers: {
    /** `live_jails_to_warden`: the whole list, sent at `serverTime`, received at `receivedAt` by this browser's clock. */
    liveJailsReceived(state, action: PayloadAction<{ jails: LiveJail[]; serverTime: number; receivedAt: number }>) {
      const { jails, serverTime, receivedAt } = action.payload;
      state.liveJails = jails;
      state.serverAheadMs = serverTime - receivedAt;
    },
    /** `live_jail_to_warden`: one jail changed; it replaces its entry (or joins the list). */
    liveJailUpdated(state, action: PayloadAction<{ jail: LiveJail; serverTime: number; receivedAt: number }>) {
      const { jail, serverTime, receivedAt } = action.payload;
      const index = state.liveJails.findIndex((entry) => entry.reservationId === jail.reservationId);
      if (index === -1) state.liveJails.push(jail);
      else state.liveJails[index] = jail;
      state.serverAheadMs = serverTime - receivedAt;
    },
    jailOpening(state, action: PayloadAction<number>) {
      state.openJail = { reservationId: action.payload, phase: 'opening', jail: null, logs: [], hasEarlier: false, approvedPatrolLogIds: [] };
    },
    /**
     * The ack of `open_jail_from_warden`, with the newest page of logs
     * (again after a reconnect: the logs merge, and those read before it
     * still say whether earlier ones remain). When more than a page came
     * while the console was away, what lies between cannot be told: the
     * timeline starts again from the page.
     */
    jailOpened(state, action: PayloadAction<{ jail: LiveJail } & LogPage>) {
      const open = state.openJail;
      const { jail, logs, hasEarlier } = action.payload;
      if (open === null || open.reservationId !== jail.reservationId) return;
      open.phase = 'open';
      open.jail = jail;
      const [oldestOfPage] = logs;
      const newestShown = open.logs.at(-1);
      const [oldestShown] = open.logs;
      if (hasEarlier && oldestOfPage !== undefined && newestShown !== undefined && byTimeThenId(oldestOfPage, newestShown) > 0) {
        open.logs = logs;
        open.hasEarlier = true;
        return;
      }
      if (oldestShown === undefined || oldestOfPage === undefined || byTimeThenId(oldestShown, oldestOfPage) >= 0) open.hasEarlier = hasEarlier;
      open.logs = mergeLogs(open.logs, logs);
    },
    /** The ack of `jail_logs_from_warden`: the page before the oldest log shown. */
    earlierLogsReceived(state, action: PayloadAction<{ reservationId: number } & LogPage>) {
      const open = state.openJail;
      if (open === null || open.reservationId !== action.payload.reservationId) return;
      open.logs = mergeLogs(open.logs, action.payload.logs);
      open.hasEarlier = action.payload.hasEarlier;
    },
    /** `jail_log_to_warden`: kept only for the jail that is open. */
    jailLogReceived(state, action: PayloadAction<{ reservationId: number; log: JailLog }>) {
      const open = state.openJail;
      if (open === null || open.reservationId !== action.payload.reservationId) return;
      open.logs = mergeLogs(open.logs, [action.payload.log]);
    },
    jailClosed(state) {
      state.openJail = null;
    },
    sceneApproved(state, action: PayloadAction<number>) {
      if (state.openJail !== null && !state.openJail.approvedPatrolLogIds.includes(action.payload)) {
        state.openJail.approvedPatrolLogIds.push(action.payload);
      }
    },
    relayStatusChanged(state, action: PayloadAction<RelayStatus>) {
      state.relay = action.payload;
    },
    errorShown(state, action: PayloadAction<string>) {
      state.error = action.payload;
    },
    errorDismissed(state) {
      state.error = null;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
  },
});

export const {
  liveJailsReceived,
  liveJailUpdated,
  jailOpening,
  jailOpened,
  jailLogReceived,
  earlierLogsReceived,
  jailClosed,
  sceneApproved,
  relayStatusChanged,
  errorShown,
  errorDismissed,
} = consoleSlice.actions;

type WithConsole = { console: ConsoleState };

/** The live jails in the grid's order. */
export const selectSortedLiveJails = createSelector([(state: WithConsole) => state.console.liveJails], (jails) => [...jails].sort(compareLiveJails));

/** The open jail's newest state: from the live list while it is live, else as it was opened; null once it has finished. */
export const selectOpenLiveJail = createSelector(
  [(state: WithConsole) => state.console.liveJails, (state: WithConsole) => state.console.openJail?.reservationId],
  (jails, reservationId) => jails.find((jail) => jail.reservationId === reservationId) ?? null,
);

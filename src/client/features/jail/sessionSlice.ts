import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { GuestJail, RelayWarden } from '../../../shared/relay.ts';
import { rootReducer } from '../../app/storeRoot.ts';
import type { FinishKind, JailStatus } from '../../../shared/jail-vocabulary.ts';

/**
 * The live session on the guest's side (docs/jail.md, Commands; guest jail
 * status): which screen, the eye's mode, the jail and its status, the
 * warden, and the finish, announced once. The relay events and the guest's
 * status commands are its actions. The normal commands, and those on offer
 * in each status, are the Command group's (commandSlice.ts).
 */

/** Screen ids (docs/jail.md, Commands): waiting 0, preparation 1, live 2. */
export const SCREENS = { wait: 0, prep: 1, live: 2 } as const;
export type ScreenId = (typeof SCREENS)[keyof typeof SCREENS];

export const EYE_MODES = ['monitoring', 'capturing', 'attention', 'dialogue'] as const;
export type EyeMode = (typeof EYE_MODES)[number];

export interface JailSessionState {
  screen: ScreenId;
  eyeMode: EyeMode;
  /** Whether the eye is awake (it wakes at the start, then sleeps). */
  eyeAwake: boolean;
  jail: GuestJail | null;
  status: JailStatus;
  statusSince: number;
  warden: RelayWarden | null;
  finish: FinishKind | null;
  /** The finish is announced once (docs/jail.md, Commands); then the reservation is read again. */
  finishAnnounced: boolean;
}

const initialState: JailSessionState = {
  screen: SCREENS.wait,
  eyeMode: 'monitoring',
  eyeAwake: false,
  jail: null,
  status: 'injail',
  statusSince: 0,
  warden: null,
  finish: null,
  finishAnnounced: false,
};

function setStatus(state: JailSessionState, status: JailStatus, since: number) {
  state.status = status;
  state.statusSince = since;
}

export const jailSessionSlice = createSlice({
  name: 'jailSession',
  initialState,
  reducers: {
    screenEntered(state, action: PayloadAction<ScreenId>) {
      state.screen = action.payload;
    },
    eyeModeChanged(state, action: PayloadAction<EyeMode>) {
      state.eyeMode = action.payload;
    },
    eyeSlept(state) {
      state.eyeAwake = false;
    },
    /** `jail_start_to_guest`: the jail, its warden; the eye wakes. */
    jailStarted(state, action: PayloadAction<{ jail: GuestJail; warden: RelayWarden | null }>) {
      const { jail, warden } = action.payload;
      state.jail = jail;
      state.warden = warden;
      state.finish = null;
      state.finishAnnounced = false;
      state.eyeAwake = true;
      setStatus(state, jail.jailStatus, jail.statusSince);
    },
    /** `jail_resume_to_guest`: back mid-jail, with the status to restore (leaving, breaking). */
    jailResumed(state, action: PayloadAction<{ guest: { jailStatus: JailStatus; statusSince: number }; jail: GuestJail; warden: RelayWarden | null }>) {
      const { guest, jail, warden } = action.payload;
      state.jail = jail;
      state.warden = warden;
      setStatus(state, guest.jailStatus, guest.statusSince);
    },
    /** The status kept on the device, after a reload: shown until the relay's resume (which wins) arrives. */
    statusRestored(state, action: PayloadAction<{ status: JailStatus; since: number }>) {
      if (state.jail !== null) return;
      setStatus(state, action.payload.status, action.payload.since);
    },
    /** `jail_update_to_guest`: the server's status wins. */
    jailUpdated(state, action: PayloadAction<{ guest: { jailStatus: JailStatus; statusSince: number }; warden: RelayWarden | null }>) {
      state.warden = action.payload.warden;
      setStatus(state, action.payload.guest.jailStatus, action.payload.guest.statusSince);
    },
    /**
     * The guest gave a status command (touch or voice; `commandOutcome` says
     * which status, among the commands on offer): the status changes at once,
     * before the relay answers.
     */
    statusChosen(state, action: PayloadAction<{ status: JailStatus; now: number }>) {
      if (action.payload.status === state.status) return;
      setStatus(state, action.payload.status, action.payload.now);
    },
    /** The end time passed, or `jail_finish_to_guest` came. */
    jailFinished(state, action: PayloadAction<FinishKind>) {
      state.finish ??= action.payload;
    },
    finishAnnounced(state) {
      state.finishAnnounced = true;
    },
    sessionLeft() {
      return initialState;
    },
  },
});

/** The group in every store, from when this module loads (app/store.ts); read it with `jailSessionGroup.selectSlice`. */
export const jailSessionGroup = jailSessionSlice.injectInto(rootReducer);

export const {
  screenEntered,
  eyeModeChanged,
  eyeSlept,
  jailStarted,
  jailResumed,
  jailUpdated,
  statusRestored,
  statusChosen,
  jailFinished,
  finishAnnounced,
  sessionLeft,
} = jailSessionSlice.actions;

/** Whether the finish still has to be announced (once, docs/jail.md, Commands). */
export function shouldAnnounceFinish(state: JailSessionState): state is JailSessionState & { finish: FinishKind } {
  return state.finish !== null && !state.finishAnnounced;
}

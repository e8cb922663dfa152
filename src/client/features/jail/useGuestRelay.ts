import { useEffect, useState } from 'react';
import { ALIVE_CHECK_INTERVAL_MS } from '../../../shared/constants.ts';
import { useAppDispatch, useAppSelector, useAppStore } from '../../app/hooks.ts';
import { refreshGuest } from '../../app/session.ts';
import { featureImagesReceived } from './api.ts';
import { GuestRelay } from './guest-relay.ts';
import { jailFinished, jailResumed, jailSessionGroup, jailStarted, jailUpdated } from './sessionSlice.ts';
import { commandsUpdated } from './commandSlice.ts';
import { CLIENT_VERSION } from '../../app/version.ts';

/** docs/client.md, Failures the guest sees: when the relay cannot be reached again, a Japanese alert that the connection is lost, then a reload. */
export const CONNECTION_LOST_ALERT = 'サーバーとの接続が切れました。ページを再読み込みします。';

/** How long to wait before connecting again after the relay refused the handshake of a session that still holds. */
const REFUSED_RETRY_MS = 5_000;

/**
 * The guest's relay while a jail screen is open: connected with the
 * session, initialised on every (re)connection (after the events kept
 * through a drop went again, so that the resume counts them), an alive
 * check every 30 s with the current status, and the server's jail events
 * applied to the session. A refused handshake reads the session again: one
 * that ended signs the guest out (the app's handling of a refused session),
 * one that holds connects again a little later. Null until the session is
 * known.
 */
export function useGuestRelay(): GuestRelay | null {
  const auth = useAppSelector((state) => state.session.auth);
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const [relay, setRelay] = useState<GuestRelay | null>(null);

  useEffect(() => {
    if (auth === null) return undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    const connected: GuestRelay = new GuestRelay({
      session: { id: auth.id, token: auth.token },
      language: () => store.getState().application.language,
      onConnectionLost: () => {
        window.alert(CONNECTION_LOST_ALERT);
        window.location.reload();
      },
      onRefused: () => {
        void refreshGuest(store).then(() => {
          if (!closed && store.getState().session.auth !== null) retry = setTimeout(() => connected.reconnect(), REFUSED_RETRY_MS);
        });
      },
      onConnected: () => {
        connected.initialize(navigator.userAgent.slice(0, 500), CLIENT_VERSION).catch(() => undefined);
      },
    });
    const { socket } = connected;
    socket.on('jail_start_to_guest', (payload) => dispatch(jailStarted(payload)));
    socket.on('jail_resume_to_guest', (payload) => dispatch(jailResumed(payload)));
    socket.on('jail_update_to_guest', (payload) => dispatch(jailUpdated(payload)));
    socket.on('update_commands_to_guest', ({ commands }) => dispatch(commandsUpdated(commands)));
    socket.on('feature_images_to_guest', ({ featureImages }) => void dispatch(featureImagesReceived(featureImages)));
    socket.on('jail_finish_to_guest', ({ finish }) => dispatch(jailFinished(finish)));
    const alive = setInterval(() => {
      const session = jailSessionGroup.selectSlice(store.getState());
      if (!socket.connected || session.jail === null) return;
      connected.send('check_alive_from_guest', { jailStatus: session.status }).catch(() => undefined);
    }, ALIVE_CHECK_INTERVAL_MS);
    setRelay(connected);
    return () => {
      clearInterval(alive);
      closed = true;
      clearTimeout(retry);
      connected.close();
      setRelay(null);
    };
  }, [auth, dispatch, store]);

  return relay;
}

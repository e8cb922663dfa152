import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { readWardenSession, RefusedCallError, savedToken } from './api.ts';
import { errorShown } from './consoleSlice.ts';
import { ackError, connectRelay, emitAsConsole, wireRelay, type AckOf, type PayloadOf, type WardenEvent, type WardenSocket } from './relay.ts';
import { signedOut } from './sessionSlice.ts';
import { useConsoleStore } from './store.ts';

/** How long to wait before connecting again after the relay refused the handshake. */
const REFUSED_RETRY_MS = 5_000;

export interface Relay {
  socket: WardenSocket;
  /** Sends an event; answers the ack when it was accepted, else shows its error to the warden and answers null. */
  send<Event extends WardenEvent>(event: Event, payload: PayloadOf<Event>): Promise<AckOf<Event> | null>;
}

const RelayContext = createContext<Relay | null>(null);

/** The relay of the signed-in console: connected while this is mounted. */
export function RelayProvider({ token, children }: { token: string; children: ReactNode }) {
  const store = useConsoleStore();
  // The i18next instance, not `t`: a language change must not hang up a call by renewing `send`.
  const { i18n } = useTranslation();
  const [socket, setSocket] = useState<WardenSocket | null>(null);

  useEffect(() => {
    let retry: number | undefined;
    let closed = false;
    const connected = connectRelay(token, () => store.getState().session.language);
    // A refused handshake: signed out if the session has ended, else (the
    // relay was starting, a server was down) try again a little later.
    const onRefused = () => {
      readWardenSession(token, store.getState().session.language).then(
        () => {
          if (!closed) retry = window.setTimeout(() => connected.connect(), REFUSED_RETRY_MS);
        },
        (error: unknown) => {
          if (closed) return;
          if (error instanceof RefusedCallError) {
            savedToken.forget();
            store.dispatch(signedOut({ reason: error.message }));
          } else {
            retry = window.setTimeout(() => connected.connect(), REFUSED_RETRY_MS);
          }
        },
      );
    };
    const unwire = wireRelay(connected, store, onRefused);
    setSocket(connected);
    return () => {
      closed = true;
      unwire();
      window.clearTimeout(retry);
      connected.disconnect();
    };
  }, [token, store]);

  const relay = useMemo<Relay | null>(() => {
    if (socket === null) return null;
    return {
      socket,
      async send(event, payload) {
        const ack = await emitAsConsole(socket, store, event, payload);
        const error = ackError(ack, i18n.t('relay_no_answer'));
        if (error === null) return ack;
        store.dispatch(errorShown(error));
        return null;
      },
    };
  }, [socket, store, i18n]);

  return relay === null ? null : <RelayContext.Provider value={relay}>{children}</RelayContext.Provider>;
}

export function useRelay(): Relay {
  const relay = useContext(RelayContext);
  if (relay === null) throw new Error('useRelay outside RelayProvider');
  return relay;
}

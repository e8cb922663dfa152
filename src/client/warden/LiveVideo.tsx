import { useCallback, useEffect, useReducer, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebrtcHandshakeDelivered } from '../../shared/relay.ts';
import { useRelay } from './RelayContext.tsx';
import { guestAddress, handshakeStep, IDLE_VIDEO, isWatching, videoReducer } from './signalling.ts';

interface LiveVideoProps {
  guest: { id: number; title: string };
  /** The live jail watched: the relay gives each call's STUN and TURN servers for it. */
  reservationId: number;
  /** False once the jail is over: watching stops and cannot start. */
  enabled: boolean;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * "Watch live": the console calls the guest's device over WebRTC (a
 * receive-only video transceiver), the relay carrying the offer, the answer
 * and the candidates. Hangs up when stopped, when the jail closes and when
 * the panel goes away.
 */
export function LiveVideo({ guest, reservationId, enabled }: LiveVideoProps) {
  const { t } = useTranslation();
  const { socket, send } = useRelay();
  const [state, dispatch] = useReducer(videoReducer, IDLE_VIDEO);
  const peerRef = useRef<RTCPeerConnection | null>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  /** Candidates that came before the answer: a peer takes them only after it. */
  const earlyCandidates = useRef<RTCIceCandidateInit[]>([]);
  const to = guestAddress(guest.id);

  const closePeer = useCallback(
    (hangUp: boolean) => {
      const peer = peerRef.current;
      if (peer === null) return;
      peerRef.current = null;
      earlyCandidates.current = [];
      peer.close();
      if (videoRef.current !== null) videoRef.current.srcObject = null;
      if (hangUp) void send('webrtc_handshake', { to, type: 'hangup' });
    },
    [send, to],
  );

  const fail = useCallback(
    (error: unknown) => {
      closePeer(true);
      dispatch({ type: 'failed', reason: reasonOf(error) });
    },
    [closePeer],
  );

  useEffect(() => {
    async function onHandshake(message: WebrtcHandshakeDelivered): Promise<void> {
      const peer = peerRef.current;
      const step = handshakeStep(message, guest.id);
      if (peer === null || step === null) return;
      try {
        if (step.type === 'answer') {
          await peer.setRemoteDescription(step.description);
          for (const candidate of earlyCandidates.current.splice(0)) await peer.addIceCandidate(candidate);
          dispatch({ type: 'answered' });
        } else if (step.type === 'candidate') {
          if (peer.remoteDescription === null) earlyCandidates.current.push(step.candidate);
          else await peer.addIceCandidate(step.candidate);
        } else {
          closePeer(false);
          dispatch({ type: 'hungUp' });
        }
      } catch (error) {
        fail(error);
      }
    }
    const listener = (message: WebrtcHandshakeDelivered) => void onHandshake(message);
    socket.on('webrtc_handshake', listener);
    return () => {
      socket.off('webrtc_handshake', listener);
    };
  }, [socket, guest.id, closePeer, fail]);

  // Leaving the panel, or another guest: hang up.
  useEffect(() => () => closePeer(true), [closePeer]);

  useEffect(() => {
    if (!enabled) {
      closePeer(true);
      dispatch({ type: 'stopped' });
    }
  }, [enabled, closePeer]);

  async function start(): Promise<void> {
    dispatch({ type: 'start' });
    // Each call's own servers, TURN credentials made for it while the jail is live; a refusal is shown by `send`.
    const servers = await send('ice_servers_from_warden', { reservationId });
    if (servers === null) {
      dispatch({ type: 'stopped' });
      return;
    }
    const peer = new RTCPeerConnection({ iceServers: servers.iceServers ?? [] });
    peerRef.current = peer;
    peer.addTransceiver('video', { direction: 'recvonly' });
    peer.ontrack = (event) => {
      if (videoRef.current !== null) videoRef.current.srcObject = event.streams[0] ?? new MediaStream([event.track]);
      dispatch({ type: 'track' });
    };
    peer.onicecandidate = (event) => {
      const found = event.candidate;
      if (found === null) return;
      void send('webrtc_handshake', {
        to,
        type: 'candidate',
        candidate: { candidate: found.candidate, sdpMid: found.sdpMid, sdpMLineIndex: found.sdpMLineIndex },
      });
    };
    peer.onconnectionstatechange = () => {
      if (peer.connectionState === 'failed' && peerRef.current === peer) fail(new Error(peer.connectionState));
    };
    try {
      const offer = await peer.createOffer();
      await peer.setLocalDescription(offer);
      const ack = await send('webrtc_handshake', { to, type: 'offer', description: { type: 'offer', sdp: offer.sdp ?? '' } });
      if (ack === null && peerRef.current === peer) {
        closePeer(false);
        dispatch({ type: 'stopped' });
      }
    } catch (error) {
      if (peerRef.current === peer) fail(error);
    }
  }

  function stop(): void {
    closePeer(true);
    dispatch({ type: 'stopped' });
  }

  const watching = isWatching(state.phase);
  const statusText = state.phase === 'failed' ? t('video_failed', { reason: state.reason ?? '' }) : t(`video_${state.phase}`);
  return (
    <section className="live-video" aria-labelledby="live-video-title">
      <h3 id="live-video-title">{t('video_title')}</h3>
      <div className="video-box">{watching && <video ref={videoRef} autoPlay playsInline muted aria-label={t('video_of', { title: guest.title })} />}</div>
      <p role="status" className="muted">
        {statusText}
      </p>
      {watching ? (
        <button type="button" className="button secondary" onClick={stop}>
          {t('stop_watching')}
        </button>
      ) : (
        <button type="button" className="button" disabled={!enabled} onClick={() => void start()}>
          {t('watch_live')}
        </button>
      )}
    </section>
  );
}

/**
 * The camera check's session: opens the camera, starts the vision worker on
 * it, samples once a second and takes a patrol thumbnail as often as a jail
 * considers a patrol, all reported through the reducer of state.ts.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { PATROL_CHECK_INTERVAL_MS } from '../../../shared/constants';
import { CameraError, Sampler, isIosDevice, openCamera, type SampleRecord } from '../../vision/capture';
import { VisionClient } from '../../vision/client';
import type { CheckQuery } from './query';
import { initialState, reducer } from './state';

interface CheckControls {
  approveView(): Promise<void>;
  clearViews(): Promise<void>;
  /** Starts the check anew after a failure (the guest allowed the camera, or freed it). */
  retry(): void;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function useCameraCheck(query: CheckQuery, sleeper: boolean) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [state, dispatch] = useReducer(reducer, initialState);
  const clientRef = useRef<VisionClient | null>(null);
  const whitelistRef = useRef<Uint8Array[]>([]);
  const sleeperRef = useRef(sleeper);
  const sessionRef = useRef<{ width: number; height: number } | null>(null);
  const ios = useMemo(() => isIosDevice(), []);
  const [attempt, setAttempt] = useState(0);

  // The session, started anew by each retry (`attempt`).
  useEffect(() => {
    const video = videoRef.current;
    if (video === null) return;
    let cancelled = false;
    let stream: MediaStream | null = null;
    let sampler: Sampler | null = null;
    let patrolTimer: ReturnType<typeof setInterval> | null = null;
    let patrolUrl: string | null = null;
    let analysed = false;
    const client = new VisionClient();
    clientRef.current = client;

    const fail = (error: unknown) => {
      if (cancelled) return;
      if (error instanceof CameraError) {
        // docs/client.md, Failures the guest sees: a missing camera is not logged; anything else goes to the error log.
        if (error.reason !== 'NotFoundError') console.error('Camera failed', error.cause ?? error);
        dispatch({ type: 'failed', failure: { kind: 'camera', reason: error.reason } });
      } else {
        console.error('Camera check failed', error);
        dispatch({ type: 'failed', failure: { kind: 'start', reason: describeError(error) } });
      }
    };

    const takePatrol = async () => {
      if (!analysed) return;
      try {
        const shot = await client.patrol();
        if (cancelled) return;
        if (patrolUrl !== null) URL.revokeObjectURL(patrolUrl);
        patrolUrl = shot.jpeg === null ? null : URL.createObjectURL(shot.jpeg);
        dispatch({
          type: 'patrol',
          patrol: { url: patrolUrl ?? '', width: shot.width, height: shot.height, allBlack: shot.allBlack, takenAt: Date.now() },
        });
      } catch (error) {
        if (!cancelled) console.error('Patrol thumbnail failed', error);
      }
    };

    const onSample = (record: SampleRecord) => {
      analysed = true;
      dispatch({ type: 'sample', record, sleeper: sleeperRef.current, ios });
    };

    (async () => {
      const enginePromise = client.init(query.engine);
      enginePromise.catch(() => undefined);
      stream = await openCamera(ios);
      if (cancelled) return;
      const track = stream.getVideoTracks()[0];
      track.addEventListener('ended', () => fail(new CameraError('Ended')));
      video.srcObject = stream;
      await video.play().catch(() => undefined);
      if (video.videoWidth === 0) {
        await new Promise((resolve) => video.addEventListener('loadedmetadata', resolve, { once: true }));
      }
      if (cancelled) return;
      const settings = track.getSettings();
      const camera = {
        width: video.videoWidth || settings.width || 0,
        height: video.videoHeight || settings.height || 0,
        frameRate: settings.frameRate ?? null,
      };
      dispatch({ type: 'camera', camera });
      const engine = await enginePromise;
      if (cancelled) return;
      dispatch({ type: 'engine', engine });
      await client.start({ width: camera.width, height: camera.height, ios, sleeper: sleeperRef.current });
      if (whitelistRef.current.length > 0) await client.setWhitelist(whitelistRef.current);
      if (cancelled) return;
      sessionRef.current = { width: camera.width, height: camera.height };
      if (query.capture !== 'none') {
        sampler = new Sampler({
          client,
          video,
          track,
          method: query.capture,
          onSample,
          onMethod: (method) => dispatch({ type: 'method', method }),
          onError: (error) => {
            if (!cancelled) console.error('Camera sample failed', error);
          },
        });
        sampler.start();
      }
      patrolTimer = setInterval(() => void takePatrol(), PATROL_CHECK_INTERVAL_MS);
    })().catch(fail);

    return () => {
      cancelled = true;
      sampler?.stop();
      if (patrolTimer !== null) clearInterval(patrolTimer);
      if (patrolUrl !== null) URL.revokeObjectURL(patrolUrl);
      for (const track of stream?.getTracks() ?? []) track.stop();
      video.srcObject = null;
      clientRef.current = null;
      sessionRef.current = null;
      client.terminate();
    };
  }, [query, ios, attempt]);

  // The sleeper's shorter no-motion count: a new session on the same camera.
  useEffect(() => {
    if (sleeperRef.current === sleeper) return;
    sleeperRef.current = sleeper;
    const client = clientRef.current;
    const session = sessionRef.current;
    if (client === null || session === null) return;
    client
      .start({ ...session, ios, sleeper })
      .then(() => dispatch({ type: 'restarted', sleeper, timeMs: Date.now() }))
      .catch((error: unknown) => console.error('Restarting the session failed', error));
  }, [sleeper, ios]);

  const controls: CheckControls = {
    approveView: useCallback(async () => {
      const client = clientRef.current;
      if (client === null) return;
      const image = await client.thumbnail();
      whitelistRef.current = [...whitelistRef.current, image];
      await client.setWhitelist(whitelistRef.current);
      dispatch({ type: 'whitelist', count: whitelistRef.current.length, timeMs: Date.now() });
    }, []),
    clearViews: useCallback(async () => {
      whitelistRef.current = [];
      await clientRef.current?.setWhitelist([]);
      dispatch({ type: 'whitelist', count: 0, timeMs: Date.now() });
    }, []),
    retry: useCallback(() => {
      dispatch({ type: 'retried' });
      setAttempt((count) => count + 1);
    }, []),
  };

  return { videoRef, state, controls, ios };
}

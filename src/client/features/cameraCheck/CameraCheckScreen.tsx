import ArrowLeft from 'lucide-react/icons/arrow-left';
import CheckCheck from 'lucide-react/icons/check-check';
import CircleAlert from 'lucide-react/icons/circle-alert';
import CircleCheck from 'lucide-react/icons/circle-check';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import Trash2 from 'lucide-react/icons/trash-2';
import { Button, ButtonLink } from '../../ui/Button.tsx';
/**
 * /camera-check: lets a guest see, before a jail, that Warden's camera
 * analysis sees them: the live preview and three plain checks (in frame,
 * light, movement). For support, folded away: which engine runs, the latest
 * numbers of docs/vision.md, the events they would raise, and the patrol
 * thumbnail a human warden would get. Query parameters: query.ts.
 */
import { useMemo, useState, type ComponentType, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { PATROL_CHECK_INTERVAL_MS } from '../../../shared/constants';
import type { FrameResult } from '../../vision/analyser';
import { CameraFailure } from '../cameraHelp/CameraFailure.tsx';
import { readQuery } from './query';
import { AREA_KEYS, Areas, Results } from './Results';
import { useIsLoggedIn } from '../../app/hooks';
import { useNow } from '../reservations/common';
import { formatClock, systemTimeZone } from '../../../shared/time-zone';
import { friendlyChecks, noMotionSeconds, type CheckFailure, type CheckState, type Verdict } from './state';
import { useCameraCheck } from './useCameraCheck';
import './cameraCheck.css';

function clockTime(timeMs: number): string {
  return formatClock(timeMs, systemTimeZone(), { seconds: true });
}

function Preview(props: { videoRef: RefObject<HTMLVideoElement | null>; result: FrameResult | null }) {
  const { t } = useTranslation('cameraCheck');
  const { result } = props;
  return (
    <div className="camera-check__stage">
      <video ref={props.videoRef} className="camera-check__video" data-testid="preview" autoPlay muted playsInline aria-label={t('preview_label')} />
      <div className="camera-check__overlay" aria-hidden="true">
        {AREA_KEYS.map((key, index) => (
          <span key={key} className={result?.areasChanged[index] ? 'camera-check__cell camera-check__cell--changed' : 'camera-check__cell'} />
        ))}
        {result?.centroid && <span className="camera-check__centroid" style={{ left: `${result.centroid.x * 100}%`, top: `${result.centroid.y * 100}%` }} />}
      </div>
    </div>
  );
}

/** Why the check stopped: the camera as the jail shows it (docs/client.md, Failures the guest sees), or the reason the worker gave. */
function Failure({ failure, onRetry }: { failure: CheckFailure | null; onRetry: () => void }) {
  const { t } = useTranslation('cameraCheck');
  if (failure === null) return null;
  if (failure.kind === 'camera') return <CameraFailure reason={failure.reason} onRetry={onRetry} />;
  return (
    <p className="camera-check__error" role="alert" data-testid="camera-error">
      {t('start_failed', { reason: failure.reason })}
    </p>
  );
}

const VERDICT_ICONS: Record<Verdict, ComponentType<{ className?: string; 'aria-hidden'?: 'true'; size?: number }>> = {
  ok: CircleCheck,
  waiting: LoaderCircle,
  fix: CircleAlert,
};

/** The three checks a guest understands, with what to do about each, and the verdict. */
function FriendlyCheck({ state }: { state: CheckState }) {
  const { t } = useTranslation('cameraCheck');
  const now = useNow(1000);
  const checks = friendlyChecks(state.latest?.sample.result ?? null, state.lastMotion, now);
  const rows = [
    { name: 'frame', ...checks.frame },
    { name: 'light', ...checks.light },
    { name: 'motion', ...checks.motion },
  ];
  return (
    <div className="camera-check__friendly">
      <p className={`camera-check__verdict${checks.ready ? ' is-ready' : ''}`} role="status" data-testid="verdict">
        {checks.ready ? t('friendly.ready') : t('friendly.not_ready')}
      </p>
      <ul className="camera-check__checks" aria-label={t('friendly.heading')}>
        {rows.map(({ name, verdict, key }) => {
          const Icon = VERDICT_ICONS[verdict];
          return (
            <li key={name} className={`camera-check__check is-${verdict}`} data-testid={`check-${name}`} data-verdict={verdict}>
              <Icon className="camera-check__check-icon" aria-hidden="true" size={22} />
              <span>
                <span className="visually-hidden">{t(`friendly.verdict_${verdict}`)}: </span>
                {t(`friendly.${key}`)}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function CameraCheck() {
  const { t } = useTranslation('cameraCheck');
  const query = useMemo(() => readQuery(window.location.search), []);
  const [sleeper, setSleeper] = useState(query.sleeper);
  const { videoRef, state, controls, ios } = useCameraCheck(query, sleeper);
  const [busy, setBusy] = useState(false);
  const result = state.latest?.sample.result ?? null;
  const timing = state.latest?.sample.timing ?? null;
  const { camera } = state;
  const loggedIn = useIsLoggedIn();

  const run = (action: () => Promise<void>) => async () => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      console.error('Camera check action failed', error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="camera-check" data-testid="camera-check" aria-labelledby="camera-check-title">
      <header className="camera-check__header">
        <h1 id="camera-check-title">{t('title')}</h1>
        <p>{t('intro')}</p>
      </header>

      {state.phase === 'failed' ? <Failure failure={state.failure} onRetry={controls.retry} /> : null}

      <div className="camera-check__layout" hidden={state.phase === 'failed'}>
        <section className="camera-check__panel camera-check__main" aria-labelledby="camera-check-preview">
          <h2 id="camera-check-preview">{t('friendly.heading')}</h2>
          <Preview videoRef={videoRef} result={result} />
          <FriendlyCheck state={state} />
          <ButtonLink variant="secondary" icon={ArrowLeft} to={loggedIn ? '/reservations' : '/'}>
            {loggedIn ? t('friendly.back_to_jails') : t('friendly.back')}
          </ButtonLink>
        </section>

        <details className="camera-check__details" data-testid="details">
          <summary>{t('friendly.details')}</summary>
          <div className="camera-check__details-body">
            <section className="camera-check__panel" aria-labelledby="camera-check-facts">
              <h2 id="camera-check-facts">{t('preview_title')}</h2>
              <dl className="camera-check__facts">
                <div>
                  <dt>{t('analysis')}</dt>
                  <dd data-testid="engine" data-engine={state.engine?.engine ?? ''}>
                    {state.engine ? t(`engine.${state.engine.engine}`) : t('loading')}
                  </dd>
                </div>
                <div>
                  <dt>{t('capture')}</dt>
                  <dd data-testid="capture-method" data-method={state.method ?? ''}>
                    {state.method ? t(`method.${state.method}`) : t('starting')}
                  </dd>
                </div>
                <div>
                  <dt>{t('camera')}</dt>
                  <dd data-testid="camera-size" data-width={camera?.width ?? ''} data-height={camera?.height ?? ''} data-frame-rate={camera?.frameRate ?? ''}>
                    {camera === null
                      ? t('opening')
                      : camera.frameRate
                        ? t('camera_size_rate', { width: camera.width, height: camera.height, rate: Math.round(camera.frameRate) })
                        : t('camera_size', { width: camera.width, height: camera.height })}
                  </dd>
                </div>
                <div>
                  <dt>{t('frames_analysed')}</dt>
                  <dd data-testid="sample-count" data-value={state.samples}>
                    {state.samples}
                    {timing ? <small> {t('last_took', { ms: timing.workerMs.toFixed(1) })}</small> : null}
                  </dd>
                </div>
              </dl>
              <div className="camera-check__options">
                <label>
                  <input type="checkbox" checked={sleeper} onChange={(event) => setSleeper(event.target.checked)} />{' '}
                  {t('sleeper_option', { sleeper: noMotionSeconds(true), usual: noMotionSeconds(false) })}
                </label>
              </div>
            </section>

            <section className="camera-check__panel" aria-labelledby="camera-check-results">
              <h2 id="camera-check-results">{t('results_title')}</h2>
              {result === null ? (
                <p className="camera-check__waiting" data-testid="results-waiting">
                  {t('waiting_first_frame')}
                </p>
              ) : (
                <>
                  <Results result={result} ios={ios} sleeper={sleeper} whitelistCount={state.whitelistCount} />
                  <h3>{t('areas_title')}</h3>
                  <p className="camera-check__hint">{t('areas_hint')}</p>
                  <Areas result={result} />
                </>
              )}
              <div className="camera-check__actions">
                <Button icon={CheckCheck} onClick={run(controls.approveView)} disabled={busy || result === null} data-testid="approve-view">
                  {t('approve_view')}
                </Button>
                <Button
                  variant="secondary"
                  icon={Trash2}
                  onClick={run(controls.clearViews)}
                  disabled={busy || state.whitelistCount === 0}
                  data-testid="clear-views"
                >
                  {t('clear_views')}
                </Button>
              </div>
              <p className="camera-check__hint">{t('approved_hint')}</p>
            </section>

            <section className="camera-check__panel" aria-labelledby="camera-check-patrol">
              <h2 id="camera-check-patrol">{t('patrol_title')}</h2>
              <p className="camera-check__hint">{t('patrol_hint', { seconds: PATROL_CHECK_INTERVAL_MS / 1000 })}</p>
              <div className="camera-check__patrol" data-testid="patrol">
                {state.patrol === null ? (
                  <p data-testid="patrol-status">{t('patrol_none')}</p>
                ) : state.patrol.allBlack ? (
                  <p data-testid="patrol-status">{t('patrol_all_black', { time: clockTime(state.patrol.takenAt) })}</p>
                ) : (
                  <figure>
                    <img
                      src={state.patrol.url}
                      width={state.patrol.width}
                      height={state.patrol.height}
                      alt={t('patrol_alt', { width: state.patrol.width, height: state.patrol.height })}
                      data-testid="patrol-thumbnail"
                    />
                    <figcaption data-testid="patrol-status">{t('patrol_taken', { time: clockTime(state.patrol.takenAt) })}</figcaption>
                  </figure>
                )}
              </div>
            </section>

            <section className="camera-check__panel" aria-labelledby="camera-check-log">
              <h2 id="camera-check-log">{t('events_title')}</h2>
              {state.log.length === 0 ? <p className="camera-check__hint">{t('events_none')}</p> : null}
              {/* The live region wraps the list: a role on the <ol> itself would take its items out of a list. */}
              <div role="log" aria-live="polite" data-testid="event-log">
                <ol className="camera-check__log">
                  {state.log.map((entry) => (
                    <li key={entry.id} className={`camera-check__event camera-check__event--${entry.kind}`} data-event={entry.kind}>
                      <time dateTime={new Date(entry.timeMs).toISOString()}>{clockTime(entry.timeMs)}</time> {t(`log.${entry.text}`, entry.values)}
                    </li>
                  ))}
                </ol>
              </div>
            </section>
          </div>
        </details>
      </div>
    </main>
  );
}

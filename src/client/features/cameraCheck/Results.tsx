/** The latest frame's numbers (docs/vision.md) and the 3x3 areas, as the camera check shows them. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FrameResult } from '../../vision/analyser';
import {
  DARKNESS_COUNT_S,
  NOD_WINDOW_MS,
  NODDING_COUNT,
  NO_MOTION_THRESHOLD,
  NO_MOTION_THRESHOLD_IOS,
  WHITELIST_MATCH_THRESHOLD,
} from '../../vision/params.generated';
import { isMoving, noMotionSeconds } from './state';

/** The areas in the analyser's order (row by row from the top left); keys of texts.ts `area`. */
export const AREA_KEYS = ['top_left', 'top', 'top_right', 'left', 'centre', 'right', 'bottom_left', 'bottom', 'bottom_right'] as const;

function rgb([r, g, b]: [number, number, number]): string {
  return `rgb(${r}, ${g}, ${b})`;
}

function Value(props: { testId: string; value: number | string | boolean | null; children: ReactNode }) {
  return (
    <dd data-testid={props.testId} data-value={props.value === null ? '' : String(props.value)}>
      {props.children}
    </dd>
  );
}

export function Results(props: { result: FrameResult; ios: boolean; sleeper: boolean; whitelistCount: number }) {
  const { t } = useTranslation('cameraCheck');
  const { result, ios, sleeper, whitelistCount } = props;
  const threshold = ios ? NO_MOTION_THRESHOLD_IOS : NO_MOTION_THRESHOLD;
  const moving = isMoving(result, ios);
  const motionState = !result.hasPrevious ? 'waiting' : moving ? 'moving' : 'still';
  const lowMotionSeconds = Math.floor(result.lowMotionMs / 1000);
  const darkSeconds = Math.floor(result.darkMs / 1000);
  const score = result.whitelistScore.toFixed(1);
  let whitelistText: string;
  if (whitelistCount === 0 || result.whitelistIndex < 0) whitelistText = t('whitelist_none');
  else if (result.whitelisted) whitelistText = t('whitelist_match', { number: result.whitelistIndex + 1, score });
  else whitelistText = t('whitelist_miss', { score, threshold: WHITELIST_MATCH_THRESHOLD });

  return (
    <dl className="camera-check__values">
      <div className={`camera-check__value camera-check__value--${motionState}`}>
        <dt>{t('motion')}</dt>
        <Value testId="motion-state" value={motionState}>
          {t(`motion_${motionState}`)}
        </Value>
      </div>
      <div className="camera-check__value">
        <dt>{t('motion_score')}</dt>
        <Value testId="motion-score" value={result.motionScore}>
          {result.motionScore.toFixed(2)} <small>{t('threshold', { threshold })}</small>
        </Value>
      </div>
      <div className="camera-check__value">
        <dt>{t('changed_pixels')}</dt>
        <Value testId="changed-ratio" value={result.changedRatio}>
          {(result.changedRatio * 100).toFixed(1)} %
        </Value>
      </div>
      <div className="camera-check__value">
        <dt>{t('brightness')}</dt>
        <Value testId="mean-luma" value={result.meanLuma}>
          {result.meanLuma.toFixed(0)} <small>{t('of_255')}</small>
        </Value>
      </div>
      <div className={`camera-check__value${result.dark ? ' camera-check__value--alert' : ''}`}>
        <dt>{t('dark')}</dt>
        <Value testId="dark" value={result.dark}>
          {result.dark ? t('dark_yes') : t('no')}
        </Value>
      </div>
      <div className={`camera-check__value${result.allBlack ? ' camera-check__value--alert' : ''}`}>
        <dt>{t('all_black')}</dt>
        <Value testId="all-black" value={result.allBlack}>
          {result.allBlack ? t('all_black_yes') : t('no')}
        </Value>
      </div>
      <div className="camera-check__value">
        <dt>{t('face')}</dt>
        <Value testId="face" value={result.face ? `${result.face.x},${result.face.y}` : result.faceDetector ? 'none' : 'not looked for'}>
          {result.face
            ? t('face_at', { x: Math.round(result.face.x * 100), y: Math.round(result.face.y * 100) })
            : t(result.faceDetector ? 'face_none' : 'face_not_looked_for')}
        </Value>
      </div>
      <div className="camera-check__value">
        <dt>{t('centroid')}</dt>
        <Value testId="centroid" value={result.centroid ? `${result.centroid.x},${result.centroid.y}` : null}>
          {result.centroid ? t('centroid_at', { x: Math.round(result.centroid.x * 100), y: Math.round(result.centroid.y * 100) }) : t('none')}
        </Value>
      </div>
      <div className="camera-check__value">
        <dt>{t('nodding')}</dt>
        <Value testId="nodding-count" value={result.noddingCount}>
          {t('nodding_of', { count: result.noddingCount, needed: NODDING_COUNT, seconds: NOD_WINDOW_MS / 1000 })}
        </Value>
      </div>
      <div className="camera-check__value">
        <dt>{t('approved_view')}</dt>
        <Value testId="whitelist" value={result.whitelisted ? result.whitelistIndex : -1}>
          {whitelistText}
        </Value>
      </div>
      <div className="camera-check__value">
        <dt>{t('still_for')}</dt>
        <Value testId="low-motion-seconds" value={lowMotionSeconds}>
          {t('seconds_of', { seconds: lowMotionSeconds })} <small>{t('of_seconds', { seconds: noMotionSeconds(sleeper) })}</small>
        </Value>
      </div>
      <div className="camera-check__value">
        <dt>{t('dark_for')}</dt>
        <Value testId="dark-seconds" value={darkSeconds}>
          {t('seconds_of', { seconds: darkSeconds })} <small>{t('of_seconds', { seconds: DARKNESS_COUNT_S })}</small>
        </Value>
      </div>
    </dl>
  );
}

export function Areas(props: { result: FrameResult }) {
  const { t } = useTranslation('cameraCheck');
  return (
    <ol className="camera-check__areas" data-testid="areas" aria-label={t('areas_label')}>
      {props.result.areaMeans.map((colour, index) => {
        const changed = props.result.areasChanged[index];
        const key = AREA_KEYS[index];
        return (
          <li
            key={key}
            className={changed ? 'camera-check__area camera-check__area--changed' : 'camera-check__area'}
            data-testid={`area-${index}`}
            data-changed={changed}
            style={{ backgroundColor: rgb(colour) }}
          >
            <span className="camera-check__area-label">
              {t('area_text', { name: t(`area.${key}`), colour: rgb(colour) })}
              {changed ? t('area_changed') : ''}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

import { useTranslation } from 'react-i18next';

/** The ring's radius in the SVG's 100×100 box, inside its stroke. */
const RADIUS = 45;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/**
 * How far the jail has gone, as a ring that fills clockwise from the top
 * (`share` from 0 to 1), always shown; a progress bar to assistive
 * technology, its value in whole percent.
 */
export function ProgressRing({ share }: { share: number }) {
  const { t } = useTranslation('jail');
  const percent = Math.round(share * 100);
  return (
    <div
      className="progress-ring"
      role="progressbar"
      aria-label={t('live_progress')}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={t('live_progress_value', { percent })}
    >
      <svg viewBox="0 0 100 100" aria-hidden="true" focusable="false">
        <circle className="progress-ring-track" cx="50" cy="50" r={RADIUS} />
        <circle
          className="progress-ring-value"
          cx="50"
          cy="50"
          r={RADIUS}
          strokeDasharray={CIRCUMFERENCE}
          strokeDashoffset={CIRCUMFERENCE * (1 - share)}
          transform="rotate(-90 50 50)"
        />
      </svg>
    </div>
  );
}

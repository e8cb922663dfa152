import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { EyeMode } from './sessionSlice.ts';
import './eye.css';

/** What the eye shows, each look drawn differently (eye.css) and named after itself (`eye_<look>` in the `jail` namespace). */
export const EYE_LOOKS = ['closed', 'resting', 'monitoring', 'capturing', 'attention', 'talking', 'listening'] as const;
export type EyeLook = (typeof EYE_LOOKS)[number];

export interface EyeProps {
  mode: EyeMode;
  awake: boolean;
  /** In dialogue, whether the Warden is saying something now (else it listens to the guest). */
  speaking?: boolean;
  /** While asleep, whether the Warden still watches (a jail under way): the lids rest half open instead of shut. */
  watching?: boolean;
}

/**
 * The look of the eye: shut while asleep with nothing to watch, resting half
 * open while it sleeps through a jail, else its mode (dialogue: talking
 * while the Warden speaks, listening otherwise).
 */
export function eyeLook({ mode, awake, speaking = false, watching = false }: EyeProps): EyeLook {
  if (!awake) return watching ? 'resting' : 'closed';
  if (mode === 'dialogue') return speaking ? 'talking' : 'listening';
  return mode;
}

/**
 * The virtual Warden (docs/prep.md, The eye): an eye drawn in SVG and moved
 * by CSS (transforms and opacity only, cheap on low-end phones). Its lids
 * are shut while asleep, half open while it rests through a jail, open when
 * it wakes; each look moves it differently (eye.css).
 */
export function Eye(props: EyeProps) {
  const { t } = useTranslation('jail');
  const clip = useId();
  const look = eyeLook(props);
  return (
    <div className="eye" data-look={look} role="img" aria-label={t(`eye_${look}`)}>
      <svg viewBox="0 0 200 120" aria-hidden="true" focusable="false">
        <defs>
          <clipPath id={clip}>
            <path d="M8 60 Q100 -12 192 60 Q100 132 8 60 Z" />
          </clipPath>
        </defs>
        <g className="eye-opening" clipPath={`url(#${clip})`}>
          <rect className="eye-white" x="0" y="0" width="200" height="120" />
          <circle className="eye-ring" cx="100" cy="60" r="40" />
          <g className="eye-iris">
            <circle className="eye-iris-colour" cx="100" cy="60" r="28" />
            <circle className="eye-iris-red" cx="100" cy="60" r="28" />
            <circle className="eye-pupil" cx="100" cy="60" r="12" />
            <circle className="eye-glint" cx="109" cy="51" r="4" />
          </g>
          <rect className="eye-flash" x="0" y="0" width="200" height="120" />
          <rect className="eye-lid eye-lid-upper" x="0" y="0" width="200" height="61" />
          <rect className="eye-lid eye-lid-lower" x="0" y="59" width="200" height="61" />
          <path className="eye-seam" d="M8 60 Q100 78 192 60" />
        </g>
        <path className="eye-outline" d="M8 60 Q100 -12 192 60 Q100 132 8 60 Z" />
      </svg>
    </div>
  );
}

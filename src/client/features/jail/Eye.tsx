import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { EyeMode } from './sessionSlice.ts';
import './eye.css';

export interface EyeProps {
  mode: EyeMode;
  awake: boolean;
  /** In dialogue, whether the Warden is saying something now (the eye pulses). */
  speaking?: boolean;
}

/** The key, in the `prep` namespace, of the eye's accessible name: its mode, or asleep. */
export function eyeLabelKey(mode: EyeMode, awake: boolean): `eye_${EyeMode}` | 'eye_asleep' {
  return awake ? `eye_${mode}` : 'eye_asleep';
}

/**
 * The virtual Warden (docs/prep.md, The eye): an eye drawn in SVG and moved
 * by CSS (transforms and opacity only, cheap on low-end phones). Its lids
 * are shut while asleep and open when it wakes; each mode moves it
 * differently (eye.css).
 */
export function Eye({ mode, awake, speaking = false }: EyeProps) {
  const { t } = useTranslation('prep');
  const clip = useId();
  return (
    <div className="eye" data-mode={mode} data-awake={awake} data-speaking={speaking} role="img" aria-label={t(eyeLabelKey(mode, awake))}>
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

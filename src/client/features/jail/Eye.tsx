import { type CSSProperties, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { type Gaze, pupilOffset } from './gaze.ts';
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
  /** Where the guest's face is (gaze.ts); null while none is seen. Only the watching looks (monitoring, resting) follow it. */
  gaze?: Gaze | null;
}

/** The looks that watch the guest: they follow the face while one is seen and search for it otherwise; the others keep their own gaze. */
const WATCHING_LOOKS: ReadonlySet<EyeLook> = new Set(['monitoring', 'resting']);

/** How the watching looks turn: following a face (to `--gaze-x`, `--gaze-y`) or searching for one; none for the other looks. */
type GazeState = 'following' | 'searching';

/** The gaze the eye shows: whether it follows a face or searches, and the iris's offset (CSS custom properties) while it follows. */
export function gazeOf(look: EyeLook, gaze: Gaze | null): { state: GazeState | undefined; style: CSSProperties | undefined } {
  if (!WATCHING_LOOKS.has(look)) return { state: undefined, style: undefined };
  if (gaze === null) return { state: 'searching', style: undefined };
  const { x, y } = pupilOffset(gaze);
  return { state: 'following', style: { '--gaze-x': `${x}px`, '--gaze-y': `${y}px` } as CSSProperties };
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
 * it wakes; each look moves it differently (eye.css). While it watches
 * (monitoring, resting) the pupil follows the guest's face, easing from one
 * position to the next, and looks slowly about when no face is seen; under
 * reduced motion it stays centred.
 */
export function Eye(props: EyeProps) {
  const { t } = useTranslation('jail');
  const clip = useId();
  const look = eyeLook(props);
  const gaze = gazeOf(look, props.gaze ?? null);
  return (
    <div className="eye" data-look={look} data-gaze={gaze.state} style={gaze.style} role="img" aria-label={t(`eye_${look}`)}>
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

import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import './ui.css';

/** The colour of a label chip, from the tokens: what the label says about its thing. */
export type ChipTone = 'neutral' | 'accent' | 'success' | 'warning' | 'danger';

interface ChipLook {
  /** A lucide icon before the text (decorative: the text names the chip). */
  icon?: LucideIcon;
  children: ReactNode;
}

interface LabelChipProps extends ChipLook {
  tone?: ChipTone;
  pressed?: undefined;
}

interface ToggleChipProps extends ChipLook {
  /** Whether the toggle is on: the chip is then a button with `aria-pressed`. */
  pressed: boolean;
  onPressedChange(pressed: boolean): void;
  disabled?: boolean;
}

/**
 * A small rounded label ("Trial", "Finished early") or, given `pressed`, a
 * toggle button for a filter or an option that is on or off.
 */
export function Chip(props: LabelChipProps | ToggleChipProps) {
  const { icon: Icon, children } = props;
  const content = (
    <>
      {Icon === undefined ? null : <Icon className="chip-icon" aria-hidden="true" focusable="false" size={16} />}
      <span>{children}</span>
    </>
  );
  if (props.pressed === undefined) {
    const tone = props.tone ?? 'neutral';
    return <span className={tone === 'neutral' ? 'chip' : `chip ${tone}`}>{content}</span>;
  }
  const { pressed, onPressedChange, disabled = false } = props;
  return (
    <button type="button" className="chip toggle" aria-pressed={pressed} disabled={disabled} onClick={() => onPressedChange(!pressed)}>
      {content}
    </button>
  );
}

import type { LucideIcon } from 'lucide-react';
import { useId } from 'react';
import './ui.css';

/** One choice of a SegmentedControl. */
export interface Segment<Value extends string> {
  value: Value;
  label: string;
  /** A lucide icon before the label (decorative). */
  icon?: LucideIcon;
  disabled?: boolean;
  /** The label's language when it differs from the page's (a language's own name). */
  lang?: string;
}

interface SegmentedControlProps<Value extends string> {
  /** What is chosen: the group's name for assistive technology, and its visible caption unless `hideLegend`. */
  legend: string;
  /** Keeps the legend for screen readers only, when the screen already says what the choice is. */
  hideLegend?: boolean;
  value: Value;
  options: readonly Segment<Value>[];
  onValueChange(value: Value): void;
}

/**
 * One choice out of two to five, shown as joined segments. It is a group of
 * native radio buttons in a fieldset, so the legend names it, the arrow keys
 * move the choice and Tab enters and leaves it as one stop.
 */
export function SegmentedControl<Value extends string>({ legend, hideLegend = false, value, options, onValueChange }: SegmentedControlProps<Value>) {
  const name = useId();
  return (
    <fieldset className="segmented">
      <legend className={hideLegend ? 'visually-hidden' : 'segmented-legend'}>{legend}</legend>
      <div className="segmented-options">
        {options.map(({ value: option, label, icon: Icon, disabled, lang }) => (
          <label key={option} className="segmented-option">
            <input
              type="radio"
              className="segmented-input"
              name={name}
              value={option}
              checked={option === value}
              disabled={disabled}
              onChange={() => onValueChange(option)}
            />
            <span className="segmented-label" lang={lang}>
              {Icon === undefined ? null : <Icon aria-hidden="true" focusable="false" size={18} />}
              {label}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

import { useEffect, useId, useState } from 'react';
import './ui.css';

interface SwitchProps {
  label: string;
  /** The saved state, as the server last said. */
  checked: boolean;
  disabled?: boolean;
  testId?: string;
  /** Saves the new state; resolves whether it was saved. */
  onChange(checked: boolean): Promise<boolean>;
}

/**
 * An on/off setting saved as soon as it is flipped: it shows the new state
 * from the flip until the saved state says so too, or goes back to the old
 * state if the save failed. A checkbox with `role="switch"` and its label.
 */
export function Switch({ label, checked, disabled, testId, onChange }: SwitchProps) {
  const id = useId();
  const [saving, setSaving] = useState<boolean | null>(null);
  useEffect(() => {
    if (saving !== null && checked === saving) setSaving(null);
  }, [checked, saving]);
  async function flip(next: boolean) {
    setSaving(next);
    if (!(await onChange(next))) setSaving(null);
  }
  return (
    <div className="switch-field">
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={saving ?? checked}
        disabled={disabled}
        data-testid={testId}
        onChange={(event) => void flip(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

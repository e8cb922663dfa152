import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';
import './ui.css';

/** What every field shows around its control. */
interface FieldText {
  label: string;
  /** How to fill the control in, under it. */
  hint?: string;
  /** What is wrong with the value now: it stands in the hint's place and marks the control invalid. */
  error?: string;
}

/** The attributes that tie a control to its label and to the message under it. */
interface ControlTies {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

/**
 * The ties of a control to the message under it, and that message: the
 * error (announced as it appears) or the hint. A group of controls (a
 * fieldset) puts the ties on itself and the message at its foot.
 */
export function useFieldMessage({ hint, error }: Pick<FieldText, 'hint' | 'error'>) {
  const id = useId();
  const messageId = `${id}-message`;
  const message = error ?? hint;
  const invalid = error !== undefined;
  const ties: ControlTies = {
    id,
    ...(message === undefined ? {} : { 'aria-describedby': messageId }),
    ...(invalid ? { 'aria-invalid': true } : {}),
  };
  const shown =
    message === undefined ? null : (
      <p id={messageId} className={invalid ? 'field-error' : 'field-hint'} role={invalid ? 'alert' : undefined}>
        {message}
      </p>
    );
  return { ties, shown };
}

/**
 * The frame of every field (`.field`): the label, the control it names,
 * then the hint or the error the control is described by, then `after`.
 */
function Field({ label, hint, error, after, control }: FieldText & { after?: ReactNode; control(ties: ControlTies): ReactNode }) {
  const { ties, shown } = useFieldMessage({ hint, error });
  return (
    <div className="field">
      <label htmlFor={ties.id}>{label}</label>
      {control(ties)}
      {shown}
      {after}
    </div>
  );
}

/** A labelled checkbox (the box before its label), with the error under them. */
export function CheckField({
  label,
  error,
  checked,
  onCheckedChange,
}: Omit<FieldText, 'hint'> & { checked: boolean; onCheckedChange(checked: boolean): void }) {
  const { ties, shown } = useFieldMessage({ error });
  return (
    <div className="field">
      <div className="field-check">
        <input type="checkbox" {...ties} checked={checked} onChange={(event) => onCheckedChange(event.target.checked)} />
        <label htmlFor={ties.id}>{label}</label>
      </div>
      {shown}
    </div>
  );
}

/** The attributes a field sets itself: the ids, the ties, and the change (a field reports the new value). */
type OwnAttributes = 'id' | 'aria-describedby' | 'aria-invalid' | 'children' | 'onChange';

type TextFieldProps = FieldText &
  Omit<InputHTMLAttributes<HTMLInputElement>, OwnAttributes> & {
    onValueChange(value: string): void;
    /** What else belongs to the field, under the input: a toggle, suggestions. */
    children?: ReactNode;
  };

/** A labelled input; every other input attribute passes through. */
export function TextField({ label, hint, error, children, onValueChange, ...input }: TextFieldProps) {
  return (
    <Field
      label={label}
      hint={hint}
      error={error}
      after={children}
      control={(ties) => <input {...input} {...ties} onChange={(event) => onValueChange(event.target.value)} />}
    />
  );
}

/**
 * A password input that tells the browser's password manager whether it
 * wants the password the account has or a new one (`autocomplete`).
 */
export function PasswordField({ purpose, ...field }: Omit<TextFieldProps, 'type' | 'autoComplete'> & { purpose: 'current' | 'new' }) {
  return <TextField {...field} type="password" autoComplete={`${purpose}-password`} />;
}

type TextAreaFieldProps = FieldText &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, OwnAttributes> & {
    onValueChange(value: string): void;
  };

/** A labelled textarea, as TextField. */
export function TextAreaField({ label, hint, error, onValueChange, ...textarea }: TextAreaFieldProps) {
  return (
    <Field
      label={label}
      hint={hint}
      error={error}
      control={(ties) => <textarea {...textarea} {...ties} onChange={(event) => onValueChange(event.target.value)} />}
    />
  );
}

/** One choice of a SelectField. */
export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

interface SelectFieldProps extends FieldText {
  value: string;
  options: readonly SelectOption[];
  disabled?: boolean;
  onValueChange(value: string): void;
}

/** A labelled select of the given options. */
export function SelectField({ label, hint, error, value, options, disabled = false, onValueChange }: SelectFieldProps) {
  return (
    <Field
      label={label}
      hint={hint}
      error={error}
      control={(ties) => (
        <select {...ties} value={value} disabled={disabled} onChange={(event) => onValueChange(event.target.value)}>
          {options.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

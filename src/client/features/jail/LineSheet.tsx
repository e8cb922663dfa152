import type { LucideIcon } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button.tsx';
import { TextAreaField } from '../../ui/Field.tsx';
import { Sheet } from '../../ui/Sheet.tsx';

/** The longest line the guest may send (the relay's limit for a dialog or an excuse). */
const LINE_MAX = 500;

interface LineSheetProps {
  open: boolean;
  title: string;
  /** What the sheet is about, above the field. */
  intro?: ReactNode;
  label: string;
  hint?: string;
  send: string;
  sendIcon: LucideIcon;
  danger?: boolean;
  /** The calm way out beside the send button; without it, the sheet's close button is the way out. */
  cancel?: string;
  onSend(text: string): void;
  onClose(): void;
}

/**
 * A line for the Warden in a sheet over the live screen: the excuse for
 * finishing early (command 3), or what the guest says (command 4). Never
 * empty (the send button stays disabled until there is a word), at most 500 characters.
 */
export function LineSheet({ open, title, intro, label, hint, send, sendIcon, danger = false, cancel, onSend, onClose }: LineSheetProps) {
  const { t } = useTranslation('jail');
  const [text, setText] = useState('');
  const line = text.trim();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (line === '') return;
    onSend(line);
    setText('');
  };
  return (
    <Sheet open={open} title={title} closeLabel={t('live_close')} onClose={onClose}>
      <form className="line-sheet" onSubmit={submit}>
        {intro}
        <TextAreaField label={label} hint={hint} value={text} onValueChange={setText} maxLength={LINE_MAX} rows={3} required />
        <div className="line-sheet-actions">
          {cancel === undefined ? null : (
            <Button variant="secondary" onClick={onClose}>
              {cancel}
            </Button>
          )}
          <Button type="submit" variant={danger ? 'danger' : 'primary'} icon={sendIcon} disabled={line === ''}>
            {send}
          </Button>
        </div>
      </form>
    </Sheet>
  );
}

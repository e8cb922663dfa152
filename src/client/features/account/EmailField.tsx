import { useTranslation } from 'react-i18next';
import { TextField } from '../../ui/Field.tsx';

/** The guest's e-mail address as sign-up and the reset request ask for it: one label, the browser's e-mail keyboard and autofill. */
export function EmailField({ value, error, onValueChange }: { value: string; error?: string; onValueChange: (value: string) => void }) {
  const { t } = useTranslation('account');
  return (
    <TextField label={t('account_email')} name="email" type="email" autoComplete="email" required value={value} error={error} onValueChange={onValueChange} />
  );
}

import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../../shared/constants.ts';
import { SegmentedControl } from '../ui/SegmentedControl.tsx';
import { useLanguageChoice } from './languageChoice.ts';

/**
 * The language choice (ja or en) for the introduction and /guest/show: two
 * segments, each language named in itself. Switching changes the texts at
 * once, `<html lang>`, `api.language` of the next calls, and is remembered on
 * this device; `onChosen` then hears of it (the account menu saves it on the account).
 */
export function LanguageSelector({ className, onChosen }: { className?: string; onChosen?: (language: Language) => void }) {
  const { t } = useTranslation('common');
  const { language, choose } = useLanguageChoice();
  return (
    <div className={['language-selector', className].filter(Boolean).join(' ')}>
      <SegmentedControl<Language>
        legend={t('language')}
        value={language}
        options={LANGUAGES.map((option) => ({ value: option, label: t(`languageNames.${option}`), lang: option }))}
        onValueChange={(next) => {
          choose(next);
          onChosen?.(next);
        }}
      />
    </div>
  );
}

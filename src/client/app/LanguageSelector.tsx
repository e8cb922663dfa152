import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../shared/constants.ts';
import { isLanguage } from '../i18n.ts';
import { useAppDispatch, useAppSelector } from './hooks.ts';
import { languageChanged } from './slices/application.ts';

/**
 * The language selector (ja or en) for the introduction and /guest/show.
 * Switching changes the texts at once, `<html lang>`, `api.language` of the
 * next calls, and is remembered on this device.
 */
export function LanguageSelector({ className }: { className?: string }) {
  const { t } = useTranslation('common');
  const id = useId();
  const language = useAppSelector((state) => state.application.language);
  const dispatch = useAppDispatch();
  return (
    <div className={['language-selector', className].filter(Boolean).join(' ')}>
      <label htmlFor={id}>{t('language')}</label>
      <select
        id={id}
        value={language}
        onChange={(event) => {
          if (isLanguage(event.target.value)) dispatch(languageChanged(event.target.value));
        }}
      >
        {LANGUAGES.map((option) => (
          <option key={option} value={option} lang={option}>
            {t(`languageNames.${option}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

import { ShieldCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../app/hooks.ts';
import { DeleteSection } from './DeleteSection.tsx';

/**
 * /guest/data, "Your data": a line that leads to the privacy page, then
 * "Download your data" (the export) and "Delete your account".
 */
export function YourDataScreen() {
  const { t } = useTranslation('privacy');
  const language = useAppSelector((state) => state.application.language);
  return (
    <section className="account-screen privacy-screen">
      <h1>{t('heading')}</h1>
      <p className="privacy-page-link">
        <ShieldCheck aria-hidden="true" focusable="false" size={20} />
        <a href={`/privacy.html#${language}`}>{t('privacy_link')}</a>
      </p>
      <section aria-labelledby="data-export" />
      <DeleteSection />
    </section>
  );
}

import LockKeyhole from 'lucide-react/icons/lock-keyhole';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../app/hooks.ts';
import { privacyUrl } from '../account/links.ts';
import { DeleteSection } from './DeleteSection.tsx';
import { ExportSection } from './ExportSection.tsx';

/**
 * /guest/data, "Your data": a line that leads to the privacy page, then
 * "Download your data" (the export) and "Delete your account".
 */
export function YourDataScreen() {
  const { t } = useTranslation('privacy');
  const language = useAppSelector((state) => state.application.language);
  return (
    <section className="screen account-screen privacy-screen">
      <h1>{t('heading')}</h1>
      <p className="privacy-page-link">
        <LockKeyhole aria-hidden="true" focusable="false" size={20} />
        {/* In a tab of its own, as everywhere: the installed app has no way back from a page outside it. */}
        <a href={privacyUrl(language)} target="_blank" rel="noopener noreferrer">
          {t('privacy_link')}
        </a>
      </p>
      <ExportSection />
      <DeleteSection />
    </section>
  );
}

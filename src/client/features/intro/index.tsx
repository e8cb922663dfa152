/**
 * The introduction (route /). PLACEHOLDER from the shell: the intro helper
 * replaces this file's body, keeping the export `IntroScreen`.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LanguageSelector } from '../../app/LanguageSelector.tsx';

export function IntroScreen() {
  const { t } = useTranslation('common');
  return (
    <section className="home">
      <h1>{t('brand')}</h1>
      <p className="tagline">{t('tagline')}</p>
      <p>{t('cameraCheckIntro')}</p>
      <a className="button" href="/camera-check">
        {t('cameraCheckLink')}
      </a>
      <LanguageSelector />
    </section>
  );
}

import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LanguageSelector } from '../../app/LanguageSelector.tsx';
import { useAppSelector, useGuest, useLogout } from '../../app/hooks.ts';
import { BUILD_VERSION } from '../../app/version.ts';
import { CONTACT_EMAIL } from './links.ts';

/** /guest/show: the account menu (docs/client.md, Screens and routes). */
export function GuestShowScreen() {
  const { t } = useTranslation('account');
  const logout = useLogout();
  const language = useAppSelector((state) => state.application.language);
  const facilitatorSignedInAt = useGuest()?.facilitatorSignedInAt ?? null;
  return (
    <section className="account-screen">
      <h1>{t('show_heading')}</h1>
      <ul className="account-menu">
        <li>
          <Link to="/guest/edit">{t('show_account_info')}</Link>
        </li>
        <li>
          <Link to="/subscription">{t('show_subscription')}</Link>
        </li>
        <li>
          <Link to="/rules">{t('show_rules')}</Link>
        </li>
        <li>
          <Link to="/filters">{t('show_filters')}</Link>
        </li>
        <li>
          <Link to="/collaboration">{t('show_collaboration')}</Link>
        </li>
        <li>
          <a href={`mailto:${CONTACT_EMAIL}`}>{t('show_contact')}</a>
        </li>
        <li>
          {/* Logout calls /guest/logout and forgets the stored session; the access rules then go to /. */}
          <button type="button" className="link-button" onClick={logout}>
            {t('show_logout')}
          </button>
        </li>
      </ul>
      {facilitatorSignedInAt !== null && (
        <p className="account-note" data-testid="facilitator-signed-in">
          {t('show_facilitator_signed_in', {
            time: new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(facilitatorSignedInAt),
          })}
        </p>
      )}
      <LanguageSelector className="account-language" />
      <p className="account-version">{t('show_version', { version: BUILD_VERSION })}</p>
    </section>
  );
}

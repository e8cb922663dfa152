import type { LucideIcon } from 'lucide-react';
import BellRing from 'lucide-react/icons/bell-ring';
import BookOpen from 'lucide-react/icons/book-open';
import ChevronRight from 'lucide-react/icons/chevron-right';
import CreditCard from 'lucide-react/icons/credit-card';
import ExternalLink from 'lucide-react/icons/external-link';
import Handshake from 'lucide-react/icons/handshake';
import ImageOff from 'lucide-react/icons/image-off';
import LockKeyhole from 'lucide-react/icons/lock-keyhole';
import LogOut from 'lucide-react/icons/log-out';
import Mail from 'lucide-react/icons/mail';
import MessagesSquare from 'lucide-react/icons/messages-square';
import ShieldCheck from 'lucide-react/icons/shield-check';
import UserRound from 'lucide-react/icons/user-round';
import { useTranslation } from 'react-i18next';
import { RouterLink } from '../../app/RouterLink.tsx';
import { LanguageSelector } from '../../app/LanguageSelector.tsx';
import { useAppSelector } from '../../app/hooks.ts';
import { useGuest, useLogout } from '../../app/session.ts';
import { BUILD_VERSION } from '../../app/version.ts';
import { formatDateTime, systemTimeZone } from '../../../shared/time-zone.ts';
import { useTimeZone } from '../reservations/common.ts';
import { useGuestUpdateMutation } from './api.ts';
import { CONTACT_EMAIL, privacyUrl } from './links.ts';

/** The menu's screens, each with its icon. */
const MENU: readonly { to: string; label: string; icon: LucideIcon }[] = [
  { to: '/guest/edit', label: 'show_account_info', icon: UserRound },
  { to: '/reminders', label: 'show_reminders', icon: BellRing },
  { to: '/subscription', label: 'show_subscription', icon: CreditCard },
  { to: '/rules', label: 'show_rules', icon: BookOpen },
  { to: '/userForum', label: 'show_forum', icon: MessagesSquare },
  { to: '/filters', label: 'show_filters', icon: ImageOff },
  { to: '/collaboration', label: 'show_collaboration', icon: Handshake },
  { to: '/guest/data', label: 'show_your_data', icon: ShieldCheck },
];

/** /guest/show: the account menu (docs/client.md, Screens and routes). */
export function GuestShowScreen() {
  const { t } = useTranslation('account');
  const { t: common } = useTranslation('common');
  const logout = useLogout();
  const language = useAppSelector((state) => state.application.language);
  const timeZone = useTimeZone();
  const facilitatorSignedInAt = useGuest()?.facilitatorSignedInAt ?? null;
  const [updateGuest] = useGuestUpdateMutation();
  // A facilitator signed in as the guest chooses the page's language alone, not the guest's.
  const ownSession = useAppSelector((state) => state.session.auth?.facilitator !== true);
  return (
    <section className="screen account-screen">
      <h1>{t('show_heading')}</h1>
      <ul className="account-menu">
        {MENU.map(({ to, label, icon: Icon }) => (
          <li key={to}>
            <RouterLink to={to}>
              <Icon className="account-menu-icon" aria-hidden="true" focusable="false" size={20} />
              <span>{t(label)}</span>
              <ChevronRight className="account-menu-chevron" aria-hidden="true" focusable="false" size={18} />
            </RouterLink>
          </li>
        ))}
        <li>
          {/* The privacy page opens in a tab of its own: the installed app has no way back from a page outside it. */}
          <a href={privacyUrl(language)} target="_blank" rel="noopener noreferrer">
            <LockKeyhole className="account-menu-icon" aria-hidden="true" focusable="false" size={20} />
            <span>{common('privacyLink')}</span>
            <ExternalLink className="account-menu-chevron" aria-hidden="true" focusable="false" size={18} />
          </a>
        </li>
        <li>
          <a href={`mailto:${CONTACT_EMAIL}`}>
            <Mail className="account-menu-icon" aria-hidden="true" focusable="false" size={20} />
            <span>{t('show_contact')}</span>
          </a>
        </li>
        <li>
          {/* Logout calls /guest/logout and forgets the stored session; the access rules then go to /. */}
          <button type="button" className="link-button account-logout" onClick={logout}>
            <LogOut className="account-menu-icon" aria-hidden="true" focusable="false" size={20} />
            <span>{t('show_logout')}</span>
          </button>
        </li>
      </ul>
      {facilitatorSignedInAt !== null && (
        <p className="account-note" data-testid="facilitator-signed-in">
          {t('show_facilitator_signed_in', {
            time: formatDateTime(facilitatorSignedInAt, timeZone, language, systemTimeZone()),
          })}
        </p>
      )}
      {/* Chosen here, the language is the account's too: the Warden's lines, the jail's log, mail and reminders (docs/client.md, Texts). */}
      <LanguageSelector className="account-language" onChosen={ownSession ? (chosen) => void updateGuest({ language: chosen }) : undefined} />
      {ownSession ? <p className="account-note">{t('show_language_note')}</p> : null}
      <p className="account-version">{t('show_version', { version: BUILD_VERSION })}</p>
    </section>
  );
}

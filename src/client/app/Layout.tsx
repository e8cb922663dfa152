import type { LucideIcon } from 'lucide-react';
import CalendarPlus from 'lucide-react/icons/calendar-plus';
import ChartColumn from 'lucide-react/icons/chart-column';
import CircleAlert from 'lucide-react/icons/circle-alert';
import ListChecks from 'lucide-react/icons/list-checks';
import MessagesSquare from 'lucide-react/icons/messages-square';
import ScrollText from 'lucide-react/icons/scroll-text';
import UserRound from 'lucide-react/icons/user-round';
import { type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useMatch } from 'react-router-dom';
import { Button } from '../ui/Button.tsx';
import { api } from './api.ts';
import { AppHeader } from './AppHeader.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { globalUi } from './globalUi.ts';
import { useAppDispatch, useAppSelector } from './hooks.ts';
import { OfflineNotice } from './OfflineNotice.tsx';
import { RouterLink } from './RouterLink.tsx';
import { useOfflineShownByLiveJail } from './liveJailOffline.ts';
import { errorCleared } from './slices/network.ts';

function useGlobalUi() {
  return globalUi(useAppSelector((state) => state.network));
}

/**
 * The overlay while a call runs or an error is shown (docs/client.md, Global UI): a spinner
 * only while calls run; behind the error banner it is still, so that one message reads.
 */
export function LoadingOverlay() {
  const { t } = useTranslation('common');
  const { overlay } = useGlobalUi();
  const quiet = useOfflineShownByLiveJail();
  if (overlay === 'none' || quiet) return null;
  return (
    <div className={`loading-overlay ${overlay}`} data-testid="loading-overlay" aria-busy={overlay === 'busy'}>
      {overlay === 'busy' ? (
        <>
          <span className="loading-spinner" />
          <span className="visually-hidden" role="status">
            {t('loading')}
          </span>
        </>
      ) : null}
    </div>
  );
}

/** The network error banner; OK clears the error (docs/client.md, Failures the guest sees). */
export function NetworkBanner() {
  const { t } = useTranslation('common');
  const dispatch = useAppDispatch();
  const { banner } = useGlobalUi();
  const quiet = useOfflineShownByLiveJail();
  if (banner === null || quiet) return null;
  return (
    <div className="network-banner" role="alertdialog" aria-modal="true" aria-labelledby="network-banner-title" aria-describedby="network-banner-text">
      <div className="network-banner-box">
        <CircleAlert className="network-banner-icon" aria-hidden="true" focusable="false" size={24} />
        <div>
          <h2 id="network-banner-title">{t('networkError')}</h2>
          <p id="network-banner-text">{banner}</p>
        </div>
        <Button className="network-banner-ok" autoFocus onClick={() => dispatch(errorCleared())}>
          {t('ok')}
        </Button>
      </div>
    </div>
  );
}

interface Destination {
  to: string;
  label: 'navAdd' | 'navList' | 'navProgress' | 'navAccount' | 'navForum' | 'navRules';
  icon: LucideIcon;
  /** Only in the desktop side bar: the phone's bar keeps four. */
  wideOnly?: boolean;
}

const DESTINATIONS: readonly Destination[] = [
  { to: '/reservation/add', label: 'navAdd', icon: CalendarPlus },
  { to: '/reservations', label: 'navList', icon: ListChecks },
  { to: '/progress', label: 'navProgress', icon: ChartColumn },
  { to: '/guest/show', label: 'navAccount', icon: UserRound },
  { to: '/userForum', label: 'navForum', icon: MessagesSquare, wideOnly: true },
  { to: '/rules', label: 'navRules', icon: ScrollText, wideOnly: true },
];

/** A destination of the navigation, marked as the page shown when it is (`aria-current`, which the style follows). */
function NavigationLink({ to, children }: { to: string; children: ReactNode }) {
  const shown = useMatch({ path: to, end: true }) !== null;
  return (
    <RouterLink to={to} aria-current={shown ? 'page' : undefined}>
      {children}
    </RouterLink>
  );
}

/** The signed-in screens' navigation: a bar at the foot of a phone, a column at the side of a desktop. */
function AppNav() {
  const { t } = useTranslation('common');
  return (
    <nav className="app-nav" aria-label={t('navigation')}>
      <ul>
        {DESTINATIONS.map(({ to, label, icon: Icon, wideOnly }) => (
          <li key={to} className={wideOnly ? 'wide-only' : undefined}>
            <NavigationLink to={to}>
              <Icon className="app-nav-icon" aria-hidden="true" focusable="false" size={22} />
              <span>{t(label)}</span>
            </NavigationLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The frame of every screen (a layout route): the header with the brand, the
 * navigation on signed-in screens, the offline notice, and the screen in the
 * content column, its render errors caught and reported.
 */
export function AppFrame({ withNav }: { withNav: boolean }) {
  const { t } = useTranslation('common');
  const dispatch = useAppDispatch();
  const report = (text: string) => void dispatch(api.endpoints.errorLogCreate.initiate({ text }));
  return (
    <div className={withNav ? 'app-frame with-nav' : 'app-frame'}>
      <AppHeader />
      {withNav ? <AppNav /> : null}
      <OfflineNotice />
      <main className="app-main">
        <ErrorBoundary report={report}>
          <Suspense fallback={<p className="loading">{t('loading')}</p>}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
    </div>
  );
}

import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from './hooks.ts';
import { useOfflineShownByLiveJail } from './liveJailOffline.ts';
import { errorCleared } from './slices/network.ts';

/** Shown while any call runs or an error message is present (docs/client.md, Global UI). */
export function LoadingOverlay() {
  const { t } = useTranslation('common');
  const busy = useAppSelector((state) => state.network.calling.length > 0 || state.network.errorMessage !== null);
  const quiet = useOfflineShownByLiveJail();
  if (!busy || quiet) return null;
  return (
    <div className="loading-overlay" data-testid="loading-overlay" aria-busy="true">
      <span className="visually-hidden" role="status">
        {t('loading')}
      </span>
    </div>
  );
}

/** The network error banner; OK clears the error (docs/client.md, Failures the guest sees). */
export function NetworkBanner() {
  const { t } = useTranslation('common');
  const dispatch = useAppDispatch();
  const { errorMessage, displayError } = useAppSelector((state) => state.network);
  const quiet = useOfflineShownByLiveJail();
  if (errorMessage === null || !displayError || quiet) return null;
  return (
    <div className="network-banner" role="alertdialog" aria-modal="true" aria-labelledby="network-banner-title" aria-describedby="network-banner-text">
      <div className="network-banner-box">
        <h2 id="network-banner-title">{t('networkError')}</h2>
        <p id="network-banner-text">{errorMessage}</p>
        <button type="button" className="button" autoFocus onClick={() => dispatch(errorCleared())}>
          {t('ok')}
        </button>
      </div>
    </div>
  );
}

/** The bottom navigation of the signed-in screens: add booking and the list (and the account menu). */
export function BottomNav() {
  const { t } = useTranslation('common');
  return (
    <nav className="bottom-nav" aria-label={t('navigation')}>
      <NavLink to="/reservation/add">{t('navAdd')}</NavLink>
      <NavLink to="/reservations" end>
        {t('navList')}
      </NavLink>
      <NavLink to="/guest/show">{t('navAccount')}</NavLink>
    </nav>
  );
}

/** A signed-in screen: the page and the bottom navigation. */
export function WithBottomNav({ children }: { children: ReactNode }) {
  return (
    <>
      <div className="with-bottom-nav">{children}</div>
      <BottomNav />
    </>
  );
}

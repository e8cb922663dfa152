import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from './hooks.ts';
import { useOfflineShownByLiveJail } from './liveJailOffline.ts';
import { errorCleared, internetAvailable, noInternet } from './slices/network.ts';

/** Follows the browser's online state and says when the device is offline. */
export function OfflineNotice() {
  const { t } = useTranslation('common');
  const dispatch = useAppDispatch();
  const online = useAppSelector((state) => state.network.isInternetAvailable);
  const errorMessage = useAppSelector((state) => state.network.errorMessage);
  const noInternetText = t('noInternet');
  const quiet = useOfflineShownByLiveJail();
  // Back online: the 'no internet' message (and the overlay it holds) goes away by itself.
  useEffect(() => {
    if (online && errorMessage === noInternetText) dispatch(errorCleared());
  }, [online, errorMessage, noInternetText, dispatch]);
  useEffect(() => {
    const onOnline = () => dispatch(internetAvailable());
    const onOffline = () => dispatch(noInternet(t('noInternet')));
    if (!navigator.onLine) onOffline();
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    return () => {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
    };
  }, [dispatch, t]);
  if (online || quiet) return null;
  return (
    <p className="offline-notice" role="status">
      {t('offline')}
    </p>
  );
}

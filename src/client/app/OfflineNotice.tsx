import { Wifi, WifiOff } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chip } from '../ui/Chip.tsx';
import { Toast } from '../ui/Toast.tsx';
import { useAppDispatch, useAppSelector } from './hooks.ts';
import { useOfflineShownByLiveJail } from './liveJailOffline.ts';
import { errorCleared, internetAvailable, noInternet } from './slices/network.ts';

/**
 * Follows the browser's online state into the store (the no-internet action)
 * and, back online, clears the no-internet error and says so in a toast.
 */
export function Connectivity() {
  const { t } = useTranslation('common');
  const dispatch = useAppDispatch();
  const online = useAppSelector((state) => state.network.isInternetAvailable);
  const errorMessage = useAppSelector((state) => state.network.errorMessage);
  const [toast, setToast] = useState<string | null>(null);
  const noInternetText = t('noInternet');
  useEffect(() => {
    if (online && errorMessage === noInternetText) dispatch(errorCleared());
  }, [online, errorMessage, noInternetText, dispatch]);
  useEffect(() => {
    const onOnline = () => {
      dispatch(internetAvailable());
      setToast(t('backOnline'));
    };
    const onOffline = () => {
      setToast(null);
      dispatch(noInternet(t('noInternet')));
    };
    if (!navigator.onLine) onOffline();
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    return () => {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
    };
  }, [dispatch, t]);
  const dismiss = useCallback(() => setToast(null), []);
  return <Toast message={toast} icon={Wifi} onDismiss={dismiss} />;
}

/**
 * The one calm line that says the device is offline (docs/client.md, Global UI). The live
 * jail says it in its own place, beside the commands, so the frame stays quiet there.
 */
export function OfflineNotice() {
  const { t } = useTranslation('common');
  const online = useAppSelector((state) => state.network.isInternetAvailable);
  const shownByLiveJail = useOfflineShownByLiveJail();
  if (online || shownByLiveJail) return null;
  return (
    <div className="offline-notice" role="status">
      <Chip tone="warning" icon={WifiOff}>
        {t('offline')}
      </Chip>
    </div>
  );
}

import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { BackOnlineToast, OfflineLine, useOnlineChanges } from './connectivity.tsx';
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
  const noInternetText = t('noInternet');
  useEffect(() => {
    if (online && errorMessage === noInternetText) dispatch(errorCleared());
  }, [online, errorMessage, noInternetText, dispatch]);
  const { backOnline, dismiss } = useOnlineChanges((nowOnline) => dispatch(nowOnline ? internetAvailable() : noInternet(noInternetText)));
  return <BackOnlineToast message={backOnline} onDismiss={dismiss} />;
}

/**
 * The offline line of the frame (docs/client.md, Global UI). The live jail says it in its own
 * place, beside the commands, so the frame stays quiet there.
 */
export function OfflineNotice() {
  const online = useAppSelector((state) => state.network.isInternetAvailable);
  const shownByLiveJail = useOfflineShownByLiveJail();
  if (online || shownByLiveJail) return null;
  return <OfflineLine />;
}

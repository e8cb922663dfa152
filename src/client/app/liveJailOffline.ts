import { useTranslation } from 'react-i18next';
import { useMatch } from 'react-router-dom';
import { useAppSelector } from './hooks.ts';

/**
 * Whether the shell's no-internet message stays out of the way: the live
 * jail says itself, in one calm line that never covers its commands, when
 * the device is offline (features/jail), so the offline notice, the overlay
 * and the banner do not say it again over it.
 */
export function useOfflineShownByLiveJail(): boolean {
  const { t } = useTranslation('common');
  const onLiveJail = useMatch('/jail/live/:id') !== null;
  const noInternetText = t('noInternet');
  const noInternet = useAppSelector((state) => !state.network.isInternetAvailable || state.network.errorMessage === noInternetText);
  return onLiveJail && noInternet;
}

import Wifi from 'lucide-react/icons/wifi';
import WifiOff from 'lucide-react/icons/wifi-off';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chip } from '../ui/Chip.tsx';
import { Toast } from '../ui/Toast.tsx';

/**
 * Follows the browser's online state: calls `onChange(false)` at once when
 * the device is offline and `onChange` on every change after; back online,
 * answers the toast that says so (and how to dismiss it), which going offline
 * again takes away.
 */
export function useOnlineChanges(onChange: (online: boolean) => void): { backOnline: string | null; dismiss: () => void } {
  const { t } = useTranslation('common');
  const [backOnline, setBackOnline] = useState<string | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  useEffect(() => {
    const onOnline = () => {
      changed.current(true);
      setBackOnline(t('backOnline'));
    };
    const onOffline = () => {
      setBackOnline(null);
      changed.current(false);
    };
    if (!navigator.onLine) onOffline();
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    return () => {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
    };
  }, [t]);
  const dismiss = useCallback(() => setBackOnline(null), []);
  return { backOnline, dismiss };
}

/** The toast that says the device is back online. */
export function BackOnlineToast({ message, onDismiss }: { message: string | null; onDismiss: () => void }) {
  return <Toast message={message} icon={Wifi} onDismiss={onDismiss} />;
}

/** The one calm line that says the device is offline (docs/client.md, Global UI). */
export function OfflineLine() {
  const { t } = useTranslation('common');
  return (
    <div className="offline-notice" role="status">
      <Chip tone="warning" icon={WifiOff}>
        {t('offline')}
      </Chip>
    </div>
  );
}

/**
 * The offline line and the back-online toast of a page without the store
 * (the visitor's first screen, features/intro/IntroPage.tsx); the app's frame
 * has them through the store (OfflineNotice.tsx).
 */
export function BrowserConnectivity() {
  const [online, setOnline] = useState(true);
  const { backOnline, dismiss } = useOnlineChanges(setOnline);
  return (
    <>
      {online ? null : <OfflineLine />}
      <BackOnlineToast message={backOnline} onDismiss={dismiss} />
    </>
  );
}

import { useTranslation } from 'react-i18next';
import type { LiveJail } from '../../shared/relay.ts';
import { useConsoleSelector } from './store.ts';

/**
 * Whether the guest's device is there, as the relay last said; while the
 * console's own relay is away nobody here can know, and it says so rather
 * than show an old "connected".
 */
export function Presence({ jail }: { jail: LiveJail }) {
  const { t } = useTranslation();
  const relayConnected = useConsoleSelector((state) => state.console.relay === 'connected');
  if (!relayConnected) return <span className="presence is-unknown">{t('connection_unknown')}</span>;
  if (jail.connected) return <span className="presence is-connected">{t('connected')}</span>;
  return <span className="presence is-away">{jail.enteredAt === null ? t('not_entered') : t('not_connected')}</span>;
}

/// <reference types="vite-plugin-pwa/client" />
import { registerSW } from 'virtual:pwa-register';
import { i18n } from '../i18n.ts';

/**
 * Registers the service worker on load (the app is a PWA: docs/client.md). When an update is waiting,
 * the page asks, then reloads into it.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const update = registerSW({
    immediate: true,
    onNeedRefresh() {
      if (window.confirm(i18n.t('updateAvailable', { ns: 'common' }))) void update(true);
    },
  });
}

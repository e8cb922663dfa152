// @ts-check
/// <reference lib="webworker" />
/**
 * The reminders' part of the service worker (docs/reminders.md), imported
 * by the one vite-plugin-pwa generates: a push shows the jail's reminder,
 * and a tap opens the jail's preparation once it can be entered, its detail
 * page before that, in a window of the app if one is open.
 */
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

/**
 * @typedef {{ title: string, body: string, tag: string, prepUrl: string, detailUrl: string, entryOpensAt: number }} ReminderPayload
 */

worker.addEventListener('push', (event) => {
  if (event.data === null) return;
  /** @type {ReminderPayload} */
  const payload = event.data.json();
  event.waitUntil(
    worker.registration.showNotification(payload.title, {
      body: payload.body,
      tag: payload.tag,
      icon: '/pwa-192x192.png',
      badge: '/pwa-192x192.png',
      data: payload,
    }),
  );
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  /** @type {ReminderPayload} */
  const payload = event.notification.data;
  const url = Date.now() >= payload.entryOpensAt ? payload.prepUrl : payload.detailUrl;
  event.waitUntil(
    (async () => {
      const windows = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === worker.location.origin);
      if (open === undefined) {
        await worker.clients.openWindow(url);
        return;
      }
      // Where it goes first; then to the front (a real tap allows that).
      const navigated = await open.navigate(url);
      await (navigated ?? open).focus();
    })(),
  );
});

import { hostOf } from '../triggers/address-guard.ts';

/**
 * The hosts of the push services browsers subscribe at, the only places a
 * push address may point to (docs/reminders.md, Push services, says where
 * each comes from). `*.` is any name under the rest.
 */
const PUSH_SERVICE_HOSTS: readonly string[] = [
  // Google (FCM): Chrome and the browsers built on Chromium, Edge on Android among them.
  'fcm.googleapis.com',
  // Google's address of the GCM years, still in subscriptions made then.
  'android.googleapis.com',
  // Mozilla (autopush): Firefox, at updates.push.services.mozilla.com.
  '*.push.services.mozilla.com',
  // Microsoft (WNS): Edge on Windows, at wns2-….notify.windows.com.
  '*.notify.windows.com',
  // Apple: Safari and Home Screen web apps, at web.push.apple.com.
  '*.push.apple.com',
];

/** The most browsers one guest gets reminders on: each reminder is one request to each (docs/reminders.md). */
export const MAX_PUSH_DEVICES_PER_GUEST = 10;

function isPushServiceHost(host: string): boolean {
  return PUSH_SERVICE_HOSTS.some((pattern) => (pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern));
}

/**
 * Whether a push address is one Warden calls: https on the standard port at a
 * push service, with no user in it; or at a host of `PUSH_ALLOW_HOSTS` (a
 * local push service in tests), which may also be plain http on any port.
 * Where the host's name leads is checked again when a push is sent.
 */
export function isPushServiceAddress(endpoint: string, allowHosts: ReadonlySet<string>): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  const host = hostOf(url);
  if (allowHosts.has(host)) return url.protocol === 'https:' || url.protocol === 'http:';
  // WHATWG parsing drops a port that is the scheme's own, so '' is 443 here.
  if (url.protocol !== 'https:' || url.port !== '' || url.username !== '' || url.password !== '') return false;
  return isPushServiceHost(host);
}

/**
 * This browser and Web Push (docs/reminders.md): whether it can take
 * reminders, a name for it in the guest's list, and subscribing with the
 * server's key. The permission prompt comes only from `subscribeThisBrowser`,
 * which a button calls, never on page load.
 */

/** What this browser can do about reminders. */
export type PushSupport = 'available' | 'needs-install' | 'unsupported';

/** What decides it, read from the browser by `browserPushFacts`. */
export interface PushFacts {
  /** The Push API, notifications and a service worker are there. */
  hasPush: boolean;
  /** An iPhone or iPad, where Web Push works only for the app added to the Home Screen. */
  isIos: boolean;
  /** Running as the installed app. */
  standalone: boolean;
}

export function pushSupport(facts: PushFacts): PushSupport {
  if (facts.isIos && !facts.standalone) return 'needs-install';
  return facts.hasPush ? 'available' : 'unsupported';
}

export function browserPushFacts(): PushFacts {
  const userAgent = navigator.userAgent;
  // iPadOS says it is a Mac; a Mac has no touch screen.
  const isIos = /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && navigator.maxTouchPoints > 1);
  return {
    hasPush: 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window,
    isIos,
    standalone: window.matchMedia('(display-mode: standalone)').matches,
  };
}

/** The browser and the system a user agent names, for "Chrome on Android". */
export function browserAndSystem(userAgent: string): { browser: string; system: string } {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\/|FxiOS\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\/|CriOS\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'Browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPod/.test(userAgent)
      ? 'iPhone'
      : /iPad/.test(userAgent)
        ? 'iPad'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Mac OS X|Macintosh/.test(userAgent)
            ? 'Mac'
            : /CrOS/.test(userAgent)
              ? 'ChromeOS'
              : /Linux/.test(userAgent)
                ? 'Linux'
                : 'Device';
  return { browser, system };
}

/** The server's key as the Push API takes it. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

/** Why turning reminders on did not work. */
export type SubscribeFailure = 'denied' | 'failed';

/** Asks for permission (the prompt), then subscribes this browser with the server's key; the subscription as the server takes it. */
export async function subscribeThisBrowser(publicKey: string): Promise<{ endpoint: string; keys: { p256dh: string; auth: string } } | SubscribeFailure> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  try {
    const registration = await navigator.serviceWorker.ready;
    const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
    const json = subscription.toJSON();
    const p256dh = json.keys?.p256dh;
    const auth = json.keys?.auth;
    if (json.endpoint === undefined || p256dh === undefined || auth === undefined) return 'failed';
    return { endpoint: json.endpoint, keys: { p256dh, auth } };
  } catch {
    return 'failed';
  }
}

/** This browser's push address, if it has subscribed. */
export async function thisBrowserEndpoint(): Promise<string | null> {
  if (!('serviceWorker' in navigator)) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  return subscription?.endpoint ?? null;
}

/** Ends this browser's subscription. */
export async function unsubscribeThisBrowser(): Promise<void> {
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  await subscription?.unsubscribe();
}

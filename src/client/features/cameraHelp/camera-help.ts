/**
 * Why the camera could not be opened, in the guest's terms, and how to let
 * this browser use it (docs/client.md, Failures the guest sees).
 */

/** What went wrong: refused by the guest or the browser, no camera at all, the camera held by another app, anything else. */
export type CameraProblem = 'blocked' | 'missing' | 'busy' | 'other';

/** The `getUserMedia` failure's name (a DOMException's `name`, as `CameraError.reason` carries it) as a problem. */
export function cameraProblemOf(reason: string): CameraProblem {
  switch (reason) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'blocked';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'missing';
    case 'NotReadableError':
    case 'AbortError':
      return 'busy';
    default:
      return 'other';
  }
}

/** Browsers whose camera settings are reached alike. */
export type BrowserFamily = 'ios' | 'android' | 'firefox' | 'safari' | 'chromium' | 'other';

/** The family of the browser from its user agent (iPadOS presents itself as a Mac with touch). */
export function browserFamilyOf(nav: Pick<Navigator, 'userAgent' | 'maxTouchPoints'>): BrowserFamily {
  const agent = nav.userAgent;
  if (/iPhone|iPad|iPod/.test(agent) || (/Macintosh/.test(agent) && nav.maxTouchPoints > 1)) return 'ios';
  if (/Android/.test(agent)) return 'android';
  if (/Firefox\//.test(agent)) return 'firefox';
  if (/Chrome\/|Chromium\/|Edg\//.test(agent)) return 'chromium';
  if (/Safari\//.test(agent)) return 'safari';
  return 'other';
}

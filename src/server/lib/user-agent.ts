import Bowser from 'bowser';

/** The browser and the system a session signed in from, e.g. Chrome and Android; null for what the user agent does not name. */
export interface SessionDevice {
  browser: string | null;
  os: string | null;
}

/** Longer user agents are cut before parsing: no real browser sends one near this long. */
const USER_AGENT_READ_LENGTH = 512;

/**
 * The names a user agent gives (bowser, a kept parser): only these are
 * stored with a session, never the whole user agent or the address.
 */
export function deviceOf(userAgent: string | undefined): SessionDevice {
  const read = (userAgent ?? '').slice(0, USER_AGENT_READ_LENGTH).trim();
  if (read === '') return { browser: null, os: null };
  const parsed = Bowser.parse(read);
  return { browser: parsed.browser.name || null, os: parsed.os.name || null };
}

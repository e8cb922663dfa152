import type { FastifyServerOptions } from 'fastify';

/**
 * URL paths that carry a secret, in the routers' syntax: the segment
 * `:token`, or everything from `*` on. The mailed links and the facilitator
 * link are client pages (GET, served by the single-page-app fallback); the
 * webhook address and the calendar feed are server routes. No log line
 * shows these secrets.
 */
export const TOKEN_PATHS = [
  '/guest/verifyEmail/:token',
  '/guest/updatePassword/:token',
  '/guest/loginAsLimFacilitator/:token/:guestId',
  '/hooks/reservation/*',
  '/calendar/*',
] as const;

/** What a masked secret reads as. */
export const MASK = '***';

/** Query parameters whose value may be a secret, by name (none is used today: a new one is masked from the start). */
const SECRET_QUERY_NAME = /token|secret|passw|code|key|sig|auth|session|sid/i;

// A log line is JSON: a secret ends at a quote or backslash (kept, so the line stays valid JSON), a blank, or the query.
const SEGMENT = String.raw`[^/?#\s"\\]`;
const REST_OF_PATH = String.raw`[^?#\s"\\]`;
const QUERY_PARAMETER = /([?&])([^=&#\s"\\]+)=[^&#\s"\\]*/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `route` as a pattern whose first group is everything before its secret (any case, slashes doubled or not). */
function tokenPattern(route: string): RegExp {
  const segments = route.split('/').slice(1);
  const secretAt = segments.findIndex((segment) => segment === ':token' || segment === '*');
  if (secretAt < 0) throw new Error(`${route} names no :token or *`);
  const before = segments.slice(0, secretAt).map((segment) => `/+${segment.startsWith(':') ? `${SEGMENT}+` : escapeRegExp(segment)}`);
  const secret = segments[secretAt] === '*' ? `${REST_OF_PATH}+` : `${SEGMENT}+`;
  return new RegExp(`(${before.join('')}/+)${secret}`, 'gi');
}

const TOKEN_PATTERNS = TOKEN_PATHS.map(tokenPattern);

/** `text` (a URL, a message, a whole log line) with the secret of every token path and every secret-looking query value masked. */
export function maskTokens(text: string): string {
  let masked = text;
  for (const pattern of TOKEN_PATTERNS) masked = masked.replace(pattern, `$1${MASK}`);
  return masked.replace(QUERY_PARAMETER, (whole, separator: string, name: string) => (SECRET_QUERY_NAME.test(name) ? `${separator}${name}=${MASK}` : whole));
}

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/**
 * The logger options with `maskTokens` applied to every line as it is
 * written (pino's `streamWrite` hook): request lines, error lines and any
 * handler's own line alike, whichever field the URL is in.
 */
export function withTokenMasking(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === undefined || logger === false) return logger;
  const options: LoggerOptions = logger === true ? {} : logger;
  const write = options.hooks?.streamWrite;
  return {
    ...options,
    hooks: { ...options.hooks, streamWrite: (line: string) => maskTokens(write === undefined ? line : write(line)) },
  };
}

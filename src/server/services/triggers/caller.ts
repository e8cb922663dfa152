import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkedAddress, hostOf, TriggerAddressRefused, type Resolver } from './address-guard.ts';

/** How long one call may take, connection to the end of the answer's head. */
export const TRIGGER_TIMEOUT_MS = 10_000;

export interface TriggerCall {
  method: 'POST' | 'GET';
  url: string;
  /** Whether plain http may be called (the triggers); a push endpoint must be https. */
  httpsOnly?: boolean;
  /** The body of a POST (a trigger's JSON, a push's encrypted payload); null for GET. */
  body: string | Buffer | null;
  headers: Readonly<Record<string, string>>;
}

export interface CallGuard {
  allowHosts: ReadonlySet<string>;
  resolve: Resolver;
  timeoutMs: number;
}

/** How a call went: the answer's status code, or why there is none. */
export type CallOutcome = { ok: true; statusCode: number } | { ok: false; statusCode: number | null; error: string };

/**
 * Makes one call. The host is resolved and checked here, inside the socket's
 * `lookup`, so the connection goes to the very address that passed the
 * check (a DNS answer that changes between the check and the connection
 * cannot slip by); an IP literal is checked before the request. The Host
 * header and the TLS server name stay the URL's. Redirects are not
 * followed: a 3xx is a failed call.
 */
export async function callTrigger(call: TriggerCall, guard: CallGuard): Promise<CallOutcome> {
  let url: URL;
  try {
    url = new URL(call.url);
  } catch {
    return { ok: false, statusCode: null, error: 'the URL is invalid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, statusCode: null, error: 'only http and https are called' };
  const host = hostOf(url);
  // The test allowance (an allowed host) may also be called over http: a local stand-in has no certificate.
  if (call.httpsOnly === true && url.protocol !== 'https:' && !guard.allowHosts.has(host))
    return { ok: false, statusCode: null, error: 'only https is called' };
  try {
    // IP literals never reach `lookup`: Node connects to them directly.
    await checkedAddress(host, guard.allowHosts, guard.resolve);
  } catch (error) {
    if (error instanceof TriggerAddressRefused) return { ok: false, statusCode: null, error: error.message };
    throw error;
  }
  const lookup: LookupFunction = (hostname, options, callback) => {
    checkedAddress(hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase(), guard.allowHosts, guard.resolve).then(
      ({ address, family }) => {
        if (options.all === true) callback(null, [{ address, family }]);
        else callback(null, address, family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), '', 0),
    );
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<CallOutcome>((settle) => {
    const request = send(url, {
      method: call.method,
      headers: { ...call.headers, ...(call.body === null ? {} : { 'content-length': String(Buffer.byteLength(call.body)) }) },
      lookup,
      agent: false,
      timeout: guard.timeoutMs,
      signal: AbortSignal.timeout(guard.timeoutMs),
    });
    request.on('response', (response: IncomingMessage) => {
      // The answer's body is not read: only its status matters.
      response.resume();
      const statusCode = response.statusCode ?? 0;
      if (statusCode >= 200 && statusCode < 300) settle({ ok: true, statusCode });
      else if (statusCode >= 300 && statusCode < 400) settle({ ok: false, statusCode, error: 'redirects are not followed' });
      else settle({ ok: false, statusCode, error: `the receiver answered ${statusCode}` });
      request.destroy();
    });
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error: Error) => {
      const refused = error instanceof TriggerAddressRefused;
      const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError' || error.message === 'timed out';
      settle({
        ok: false,
        statusCode: null,
        error: refused ? error.message : timedOut ? `no answer within ${guard.timeoutMs / 1000} s` : `the call failed (${error.message})`,
      });
    });
    request.end(call.body ?? undefined);
  });
}

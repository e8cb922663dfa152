import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DEFAULT_LANGUAGE, type Language } from '../../shared/constants.ts';
import { languageSchema, responseSchema, type FailedResponse, type GuestCredentials } from '../../shared/api/envelope.ts';
import { message, type MessageKey } from '../../shared/messages.ts';
import type { WardenSession } from '../services/wardens.ts';
import type { CachedSession } from './read-cache.ts';

/**
 * A failure the caller should read: thrown anywhere in an API handler, it
 * is answered as HTTP 200 `{api:{status:'failed', errorMessage, errorCode}}`
 * with the message in the request's language and its key.
 */
export class ApiFailure extends Error {
  constructor(
    readonly key: MessageKey,
    readonly params: Readonly<Record<string, string | number>> = {},
  ) {
    super(key);
    this.name = 'ApiFailure';
  }
}

/** The failed envelope: the message, and its key for the form that shows it beside a field. */
export function failure(language: Language, key: MessageKey, params: Readonly<Record<string, string | number>> = {}): FailedResponse {
  return { api: { status: 'failed', errorMessage: message(language, key, params), errorCode: key } };
}

const languageCarrier = z.object({ api: z.object({ language: languageSchema }) });

/** The language a request body asks for (`api.language`), English when it names none. */
export function languageOf(body: unknown): Language {
  const parsed = languageCarrier.safeParse(body);
  return parsed.success ? parsed.data.api.language : DEFAULT_LANGUAGE;
}

/** The address of the caller, for rate limits. */
export function clientAddress(request: FastifyRequest): string {
  return request.ip;
}

/**
 * Who may make a call (docs/api.md, "Who may call"), decided for every
 * `/api` route in one hook (plugins/access.ts) before its handler runs:
 * - `public`: anyone;
 * - `guest`: a guest's open session, a facilitator's included;
 * - `guest-not-facilitator`: a guest's open session that a facilitator did
 *   not open (what creates or reads a credential or changes the account's
 *   security; docs/sessions.md, "Facilitator sessions");
 * - `warden`: an open console session.
 */
export type Access = 'public' | 'guest' | 'guest-not-facilitator' | 'warden';

/** What the handler of each access receives as its caller. */
export interface Callers {
  public: null;
  guest: CachedSession;
  'guest-not-facilitator': CachedSession;
  warden: WardenSession;
}

/** The credentials a body must carry for each access. */
interface CredentialsOf {
  public: unknown;
  guest: { guest: GuestCredentials };
  'guest-not-facilitator': { guest: GuestCredentials };
  warden: { warden: { token: string } };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; every `/api` route names it (plugins/access.ts). */
    access?: Access;
  }
  interface FastifyRequest {
    /** The caller the access hook authenticated, under the route's access. */
    callers: Partial<Callers> | null;
  }
}

/** The caller the access hook found for `access`; a route of another access has none. */
export function callerOf<A extends Access>(request: FastifyRequest, access: A): Callers[A] {
  const caller = request.callers?.[access];
  if (caller === undefined) throw new Error(`${request.url} is not a route of ${access} access`);
  return caller;
}

export interface ApiRoute<A extends Access, Body extends z.ZodType<CredentialsOf[A]>, Payload extends z.ZodRawShape> {
  /** Who may call it. */
  access: A;
  /** The request body; it is validated before the handler runs. */
  body: Body;
  /** The fields of a successful answer beside `api` (`{}` for none). */
  payload: Payload;
  /** Returns the payload, or throws `ApiFailure`. */
  handler(body: z.output<Body>, caller: Callers[A], request: FastifyRequest): Promise<z.output<z.ZodObject<Payload>>>;
}

/**
 * Registers `POST <prefix><path>`: the body is validated by its schema (a
 * failure names the fields, HTTP 200), the caller is authenticated by the
 * route's access, the handler's payload is wrapped in
 * `{api:{status:'success'}, ...payload}`, and the answer is checked against
 * the payload schema on the way out.
 */
export function apiPost<A extends Access, Body extends z.ZodType<CredentialsOf[A]>, Payload extends z.ZodRawShape>(
  app: FastifyInstance,
  path: string,
  route: ApiRoute<A, Body, Payload>,
): void {
  const schema = { body: route.body, response: { 200: responseSchema(route.payload) } };
  app.post(path, { schema, config: { access: route.access } }, async (request) => {
    // The zod validator compiler (plugins/api-envelope.ts) has replaced
    // the body with the schema's output before the handler runs.
    const body = request.body as z.output<Body>;
    const payload = await route.handler(body, callerOf(request, route.access), request);
    return { api: { status: 'success' as const }, ...payload };
  });
}

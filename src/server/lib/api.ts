import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DEFAULT_LANGUAGE, type Language } from '../../shared/constants.ts';
import { languageSchema, responseSchema, type FailedResponse } from '../../shared/api/envelope.ts';
import { message, type MessageKey } from '../../shared/messages.ts';

/**
 * A failure the caller should read: thrown anywhere in an API handler, it
 * is answered as HTTP 200 `{api:{status:'failed', errorMessage}}` with the
 * message in the request's language.
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

/** The failed envelope. */
export function failure(language: Language, key: MessageKey, params: Readonly<Record<string, string | number>> = {}): FailedResponse {
  return { api: { status: 'failed', errorMessage: message(language, key, params) } };
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

export interface ApiRoute<Body extends z.ZodType, Payload extends z.ZodRawShape> {
  /** The request body; it is validated before the handler runs. */
  body: Body;
  /** The fields of a successful answer beside `api` (`{}` for none). */
  payload: Payload;
  /** Returns the payload, or throws `ApiFailure`. */
  handler(body: z.output<Body>, request: FastifyRequest): Promise<z.output<z.ZodObject<Payload>>>;
}

/**
 * Registers `POST <prefix><path>`: the body is validated by its schema (a
 * failure names the fields, HTTP 200), the handler's payload is wrapped in
 * `{api:{status:'success'}, ...payload}`, and the answer is checked against
 * the payload schema on the way out.
 */
export function apiPost<Body extends z.ZodType, Payload extends z.ZodRawShape>(app: FastifyInstance, path: string, route: ApiRoute<Body, Payload>): void {
  app.post(path, { schema: { body: route.body, response: { 200: responseSchema(route.payload) } } }, async (request) => {
    // The zod validator compiler (plugins/api-envelope.ts) has replaced
    // the body with the schema's output before the handler runs.
    const body = request.body as z.output<Body>;
    const payload = await route.handler(body, request);
    return { api: { status: 'success' as const }, ...payload };
  });
}

import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { FailedResponse } from '../../shared/api/envelope.ts';
import { isMessageKey } from '../../shared/messages.ts';
import type { Language } from '../../shared/constants.ts';
import { ApiFailure, failure, languageOf } from '../lib/api.ts';
import fastifyPlugin from 'fastify-plugin';

interface ValidationIssue {
  instancePath: string;
  message?: string;
}

/**
 * The failure for a body its schema rejects: the message a field rule names
 * (e.g. 'password_invalid'), else 'The request is invalid: guest.email, …'.
 */
function validationFailure(language: Language, issues: readonly ValidationIssue[]): FailedResponse {
  for (const issue of issues) {
    if (issue.message !== undefined && isMessageKey(issue.message)) return failure(language, issue.message);
  }
  const fields = new Set(issues.map((issue) => issue.instancePath.slice(1).replaceAll('/', '.') || 'body'));
  return failure(language, 'invalid_request', { fields: [...fields].join(', ') });
}

/**
 * The path of the first string in the body that holds a NUL character,
 * which PostgreSQL text cannot store; null when there is none.
 */
function nulCharacterPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = nulCharacterPath(key, path) ?? nulCharacterPath(item, path === '' ? key : `${path}.${key}`);
    if (found !== null) return found;
  }
  return null;
}

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && 'code' in error && typeof error.code === 'string';
}

/**
 * The API's contract for the routes of the context it is registered in:
 * bodies and answers are checked by their zod schemas, and every failure is
 * the envelope `{api:{status:'failed', errorMessage}}` in the request's
 * language. A failure the caller can act on (`ApiFailure`, a rejected field)
 * is HTTP 200, because the client reads `api.errorMessage` only from an OK
 * answer; a body that is not JSON at all keeps its 4xx status; anything
 * unexpected is a 500 whose cause stays in the server log.
 */
async function apiEnvelopePlugin(app: FastifyInstance): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.addHook('preValidation', async (request) => {
    const path = nulCharacterPath(request.body);
    if (path !== null) throw new ApiFailure('invalid_request', { fields: path === '' ? 'body' : path });
  });

  app.setErrorHandler((error: unknown, request, reply) => {
    const language = languageOf(request.body);
    if (error instanceof ApiFailure) {
      return reply.code(200).send(failure(language, error.key, error.params));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      request.log.info({ fields: error.validation.map((issue) => issue.instancePath) }, 'request body rejected');
      return reply.code(200).send(validationFailure(language, error.validation));
    }
    if (isFastifyError(error) && error.code.startsWith('FST_ERR_CTP_')) {
      const statusCode = error.statusCode ?? 400;
      request.log.info({ code: error.code }, 'request body unreadable');
      const key = statusCode === 413 ? 'request_too_large' : 'unreadable_request';
      return reply.code(statusCode).send(failure(language, key));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(failure(language, 'server_error'));
  });
}

export default fastifyPlugin(apiEnvelopePlugin, { name: 'api-envelope' });

import { z } from 'zod';
import { successResponseSchema } from '../../shared/api/envelope.ts';
import {
  signedInWardenSchema,
  wardenSchema,
  wardenSignInTicketSchema,
  type SignedInWarden,
  type Warden,
  type WardenSignInTicket,
} from '../../shared/api/warden.ts';
import type { Language } from '../../shared/constants.ts';

/** A failed call, with the text to show (the server's message where it sent one, docs/api.md). */
export class ConsoleCallError extends Error {
  override readonly name: string = 'ConsoleCallError';
}

/** The server answered, and refused (a wrong password, an ended session…). */
export class RefusedCallError extends ConsoleCallError {
  override readonly name = 'RefusedCallError';
}

const failedAnswerSchema = z.object({ api: z.object({ errorMessage: z.string() }) });

/** `POST /api<path>` with `api.language`; the answer checked against its schema. */
async function post<Schema extends z.ZodType>(path: string, body: object, language: Language, answerSchema: Schema): Promise<z.output<Schema>> {
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, api: { language } }),
    });
  } catch (error) {
    throw new ConsoleCallError(`Unable to reach server. ${error instanceof Error ? error.message : String(error)}`);
  }
  const answer: unknown = await response.json().catch(() => null);
  const success = answerSchema.safeParse(answer);
  if (response.ok && success.success) return success.data;
  const failed = failedAnswerSchema.safeParse(answer);
  if (failed.success) throw new RefusedCallError(failed.data.api.errorMessage);
  throw new ConsoleCallError(response.ok ? 'Server Error' : `Request failed with status code ${response.status}`);
}

/** The password: answers the ticket for the code of the second factor (with an enrolment when the warden has none yet). */
export async function authenticateWarden(email: string, password: string, language: Language): Promise<WardenSignInTicket> {
  const answer = await post('/warden/authenticate', { warden: { email, password } }, language, successResponseSchema({ signIn: wardenSignInTicketSchema }));
  return answer.signIn;
}

/** The code of the authenticator app: answers the new console session. */
export async function confirmWardenCode(ticket: string, code: string, language: Language): Promise<SignedInWarden> {
  const answer = await post('/warden/confirmCode', { warden: { ticket, code } }, language, successResponseSchema({ warden: signedInWardenSchema }));
  return answer.warden;
}

export async function updateWardenPassword(token: string, currentPassword: string, password: string, language: Language): Promise<void> {
  await post('/warden/updatePassword', { warden: { token, currentPassword, password } }, language, successResponseSchema({}));
}

export function readWardenSession(token: string, language: Language): Promise<{ warden: Warden }> {
  return post('/warden/read', { warden: { token } }, language, successResponseSchema({ warden: wardenSchema }));
}

export async function logoutWarden(token: string, language: Language): Promise<void> {
  await post('/warden/logout', { warden: { token } }, language, successResponseSchema({}));
}

/** The console session survives a reload of the tab, not the tab itself. */
const TOKEN_KEY = 'warden-console-token';

export const savedToken = {
  read: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  write: (token: string): void => sessionStorage.setItem(TOKEN_KEY, token),
  forget: (): void => sessionStorage.removeItem(TOKEN_KEY),
};

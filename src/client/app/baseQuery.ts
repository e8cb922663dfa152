import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import type { Language } from '../../shared/constants.ts';
import { saveInBrowser } from './download.ts';
import { callFailed, callFinished, callStarted, noInternet, serverError } from './slices/network.ts';

/**
 * The base query of every call (docs/api.md, The contract): `POST /api<path>` with JSON,
 * `api.language` added to every body (and `guest {id, token}` to the calls
 * that say `auth`), the answer read as the envelope. A call of a kind (path)
 * already running is skipped.
 */
export interface CallArgs {
  /** The API path, as in docs/api.md: '/guest/read'. */
  path: string;
  /** The body beside `api` (`api.language` is added). */
  body?: Record<string, unknown>;
  /**
   * Adds the session's `guest.id` and `guest.token` to `body.guest`: `true`
   * for a call of the session, not sent without one; 'if-signed-in' for a
   * call that goes either way (an error report).
   */
  auth?: boolean | 'if-signed-in';
  /** Not counted as a running call (no loading overlay, no banner): fire and forget. */
  silent?: boolean;
  /**
   * A form's call: a refusal (api.status 'failed') raises no banner, since the
   * form shows it beside the field it concerns, or raises the banner itself
   * when it concerns none (app/fieldErrors.ts). Offline, unreachable and
   * server failures still raise the banner.
   */
  refusalsBesideFields?: boolean;
  /**
   * The success is a file, not the envelope (the export): it is handed to
   * `saveFile` under the name the server gives, and the payload is
   * `{ fileName }`. A failure is still the envelope.
   */
  download?: boolean;
}

/**
 * Why a call failed. `status`: the HTTP status (non-OK answer; 5xx shows
 * 'a server error occurred' through the server-error action), 'FAILED'
 * (api.status not 'success'), 'SERVER_ERROR' (no api.status), 'FETCH_ERROR'
 * (network failure), 'NO_INTERNET', 'SKIPPED' (the same kind was running;
 * nothing is shown), 'ABORTED' (the app dropped the call, as when a refused
 * session is forgotten while another call of it runs; nothing is shown) or
 * 'NO_SESSION' (a call of the session asked for when there is none, as by a
 * screen still shown while a refused session is forgotten: not sent, nothing
 * shown; the access rules take the page away). `message` is what the banner
 * shows; `code`, of a refusal, is the server's `api.errorCode` (the message's key).
 */
export interface CallError {
  status: number | 'FAILED' | 'SERVER_ERROR' | 'FETCH_ERROR' | 'NO_INTERNET' | 'SKIPPED' | 'ABORTED' | 'NO_SESSION';
  message: string;
  code?: string;
}

/** The parts of the store the base query reads. */
interface CallerState {
  application: { language: Language };
  session: { auth: { id: number; token: string } | null };
  network: { calling: string[] };
}

export interface BaseQueryOptions {
  baseUrl?: string;
  fetchFn?: typeof fetch;
  /** Whether the browser says it is online. */
  isOnline?: () => boolean;
  /** Translates a `common` text (the banner's texts). */
  translate?: (key: keyof typeof ENGLISH) => string;
  /** Where a downloaded file goes: the browser's downloads, unless a test says otherwise. */
  saveFile?: (file: Blob, fileName: string) => void;
}

/** The file name of a download, from `Content-Disposition: attachment; filename="…"`. */
export function attachmentName(response: Response): string {
  return /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
}

const ENGLISH = {
  unableToReachServer: 'Unable to reach server.',
  serverError: 'Server Error',
  serverErrorOccurred: 'A server error occurred.',
  noInternet: 'No internet connection. Please check your network.',
} as const;

/** The client's base query: a call's arguments in, the answer's payload or a `CallError` out. */
export type EnvelopeBaseQuery = BaseQueryFn<CallArgs, Record<string, unknown>, CallError>;

export function envelopeBaseQuery(options: BaseQueryOptions = {}): EnvelopeBaseQuery {
  const baseUrl = options.baseUrl ?? '/api';
  const isOnline = options.isOnline ?? (() => typeof navigator === 'undefined' || navigator.onLine !== false);
  const translate = options.translate ?? ((key) => ENGLISH[key]);
  return async (args, { getState, dispatch, signal }) => {
    const state = getState() as CallerState;
    const kind = args.path;
    // Before the other checks: a call that cannot go is no news (neither "already running" nor "no internet").
    const auth = state.session.auth;
    if (args.auth === true && auth === null) return { error: { status: 'NO_SESSION', message: `${kind} needs a session` } };
    if (!args.silent && state.network.calling.includes(kind)) {
      return { error: { status: 'SKIPPED', message: `${kind} is already running` } };
    }
    if (!isOnline()) {
      const message = translate('noInternet');
      if (!args.silent) dispatch(noInternet(message));
      return { error: { status: 'NO_INTERNET', message } };
    }
    const body: Record<string, unknown> = { ...args.body, api: { language: state.application.language } };
    if (args.auth && auth !== null) body.guest = { ...(args.body?.guest as Record<string, unknown> | undefined), id: auth.id, token: auth.token };
    const fail = (error: CallError) => {
      if (signal.aborted) {
        // Dropped by the app, not failed: whatever broke off (the fetch, the body) is no news for the guest.
        if (!args.silent) dispatch(callFinished(kind));
        return { error: { status: 'ABORTED', message: error.message } satisfies CallError };
      }
      if (!args.silent) dispatch(callFailed({ kind, message: error.message }));
      return { error };
    };
    const unreachable = (error: unknown) =>
      fail({ status: 'FETCH_ERROR', message: `${translate('unableToReachServer')} ${error instanceof Error ? error.message : String(error)}` });
    if (!args.silent) dispatch(callStarted(kind));
    let response: Response;
    try {
      response = await (options.fetchFn ?? fetch)(`${baseUrl}${args.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      return unreachable(error);
    }
    if (response.status >= 500) {
      const message = translate('serverErrorOccurred');
      if (!args.silent) dispatch(serverError({ kind, message }));
      return { error: { status: response.status, message } };
    }
    if (!response.ok) {
      return fail({ status: response.status, message: `Request failed with status code ${response.status}` });
    }
    if (args.download && !response.headers.get('content-type')?.startsWith('application/json')) {
      let file: Blob;
      try {
        file = await response.blob();
      } catch (error) {
        // The stream broke off: what arrived is no whole file.
        return unreachable(error);
      }
      const fileName = attachmentName(response);
      (options.saveFile ?? saveInBrowser)(file, fileName);
      if (!args.silent) dispatch(callFinished(kind));
      return { data: { fileName } };
    }
    let answer: unknown;
    try {
      answer = await response.json();
    } catch {
      answer = undefined;
    }
    const api = (answer as { api?: { status?: unknown; errorMessage?: unknown; errorCode?: unknown } } | undefined)?.api;
    if (api === undefined || api === null || typeof api.status !== 'string') {
      return fail({ status: 'SERVER_ERROR', message: translate('serverError') });
    }
    if (api.status !== 'success') {
      const message = typeof api.errorMessage === 'string' && api.errorMessage !== '' ? api.errorMessage : translate('serverError');
      const refusal: CallError = { status: 'FAILED', message, ...(typeof api.errorCode === 'string' ? { code: api.errorCode } : {}) };
      if (!args.refusalsBesideFields || signal.aborted) return fail(refusal);
      if (!args.silent) dispatch(callFinished(kind));
      return { error: refusal };
    }
    if (!args.silent) dispatch(callFinished(kind));
    return { data: answer as Record<string, unknown> };
  };
}

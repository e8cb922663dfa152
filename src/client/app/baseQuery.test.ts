import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import type { UnknownAction } from '@reduxjs/toolkit';
import { describe, expect, it } from 'vitest';
import { envelopeBaseQuery, type CallArgs } from './baseQuery.ts';
import { callFailed, callFinished, callStarted, noInternet, serverError } from './slices/network.ts';

interface Setup {
  calling?: string[];
  auth?: { id: number; token: string } | null;
  language?: 'ja' | 'en';
}

function caller({ calling = [], auth = null, language = 'ja' }: Setup = {}) {
  const actions: UnknownAction[] = [];
  const api = {
    getState: () => ({ application: { language }, session: { auth }, network: { calling } }),
    dispatch: (action: UnknownAction) => {
      actions.push(action);
      return action;
    },
    signal: new AbortController().signal,
  } as unknown as BaseQueryApi;
  return { api, actions };
}

function answer(body: unknown, status = 200): typeof fetch {
  return async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('envelopeBaseQuery', () => {
  it('posts JSON with api.language and answers the payload', async () => {
    const sent: { url: string; init: RequestInit }[] = [];
    const fetchFn: typeof fetch = async (url, init) => {
      sent.push({ url: String(url), init: init ?? {} });
      return new Response(JSON.stringify({ api: { status: 'success' }, guest: { id: 1 } }), { status: 200 });
    };
    const { api, actions } = caller({ language: 'ja' });
    const result = await envelopeBaseQuery({ fetchFn, isOnline: () => true })(
      { path: '/guest/authenticate', body: { guest: { title: 't', password: 'p' } } },
      api,
      {},
    );
    expect(result).toEqual({ data: { api: { status: 'success' }, guest: { id: 1 } } });
    expect(sent[0]?.url).toBe('/api/guest/authenticate');
    expect(sent[0]?.init.method).toBe('POST');
    expect(JSON.parse(String(sent[0]?.init.body))).toEqual({ guest: { title: 't', password: 'p' }, api: { language: 'ja' } });
    expect(actions).toEqual([callStarted('/guest/authenticate'), callFinished('/guest/authenticate')]);
  });

  it('adds the session to the calls that say auth', async () => {
    let body: unknown;
    const fetchFn: typeof fetch = async (_url, init) => {
      body = JSON.parse(String(init?.body));
      return new Response(JSON.stringify({ api: { status: 'success' } }));
    };
    const { api } = caller({ auth: { id: 3, token: 'tok' }, language: 'en' });
    const args: CallArgs = { path: '/reservation/read', body: { reservation: { id: 9 } }, auth: true };
    await envelopeBaseQuery({ fetchFn, isOnline: () => true })(args, api, {});
    expect(body).toEqual({ reservation: { id: 9 }, guest: { id: 3, token: 'tok' }, api: { language: 'en' } });
  });

  it('fails with the status code on a non-OK answer', async () => {
    const { api, actions } = caller();
    const result = await envelopeBaseQuery({ fetchFn: answer({ api: { status: 'failed', errorMessage: 'x' } }, 404), isOnline: () => true })(
      { path: '/a' },
      api,
      {},
    );
    expect(result.error?.status).toBe(404);
    expect(result.error?.message).toBe('Request failed with status code 404');
    expect(actions.at(-1)).toEqual(callFailed({ kind: '/a', message: 'Request failed with status code 404' }));
  });

  it('dispatches the server-error action on a 5xx answer, enveloped or not', async () => {
    for (const [body, status] of [
      [{ api: { status: 'failed', errorMessage: 'x' } }, 500],
      ['<html>Bad Gateway</html>', 502],
    ] as const) {
      const { api, actions } = caller();
      const translate = (key: string) => (key === 'serverErrorOccurred' ? 'サーバーエラーが発生しました' : key);
      const result = await envelopeBaseQuery({ fetchFn: answer(body, status), isOnline: () => true, translate })({ path: '/a' }, api, {});
      expect(result.error).toEqual({ status, message: 'サーバーエラーが発生しました' });
      expect(actions).toEqual([callStarted('/a'), serverError({ kind: '/a', message: 'サーバーエラーが発生しました' })]);
    }
  });

  it("says 'Server Error' when the answer has no api or no status", async () => {
    for (const body of [{ guest: {} }, { api: {} }, 'not json', { api: null }]) {
      const { api, actions } = caller();
      const result = await envelopeBaseQuery({ fetchFn: answer(body), isOnline: () => true })({ path: '/a' }, api, {});
      expect(result.error).toEqual({ status: 'SERVER_ERROR', message: 'Server Error' });
      expect(actions.at(-1)).toEqual(callFailed({ kind: '/a', message: 'Server Error' }));
    }
  });

  it("stores and shows the server's errorMessage when the status is not success", async () => {
    const { api, actions } = caller();
    const result = await envelopeBaseQuery({
      fetchFn: answer({ api: { status: 'failed', errorMessage: 'The username or password is wrong.' } }),
      isOnline: () => true,
    })({ path: '/guest/authenticate' }, api, {});
    expect(result.error).toEqual({ status: 'FAILED', message: 'The username or password is wrong.' });
    expect(actions.at(-1)).toEqual(callFailed({ kind: '/guest/authenticate', message: 'The username or password is wrong.' }));
  });

  it("leaves a form's refusal to the form (no banner) with its code, but still shows a server failure", async () => {
    const refused = caller();
    const refusal = { api: { status: 'failed', errorMessage: 'The username or password is wrong.', errorCode: 'sign_in_failed' } };
    const result = await envelopeBaseQuery({ fetchFn: answer(refusal), isOnline: () => true })(
      { path: '/guest/authenticate', refusalsBesideFields: true },
      refused.api,
      {},
    );
    expect(result.error).toEqual({ status: 'FAILED', message: 'The username or password is wrong.', code: 'sign_in_failed' });
    expect(refused.actions).toEqual([callStarted('/guest/authenticate'), callFinished('/guest/authenticate')]);
    const failing = caller();
    await envelopeBaseQuery({ fetchFn: answer({}, 500), isOnline: () => true, translate: () => 'A server error occurred.' })(
      { path: '/guest/authenticate', refusalsBesideFields: true },
      failing.api,
      {},
    );
    expect(failing.actions.at(-1)).toEqual(serverError({ kind: '/guest/authenticate', message: 'A server error occurred.' }));
  });

  it("says 'Unable to reach server.' with the technical message on a network failure", async () => {
    const { api, actions } = caller();
    const fetchFn: typeof fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    const result = await envelopeBaseQuery({ fetchFn, isOnline: () => true })({ path: '/a' }, api, {});
    expect(result.error).toEqual({ status: 'FETCH_ERROR', message: 'Unable to reach server. Failed to fetch' });
    expect(actions.at(-1)).toEqual(callFailed({ kind: '/a', message: 'Unable to reach server. Failed to fetch' }));
  });

  it('dispatches the no-internet action without calling when offline', async () => {
    const { api, actions } = caller();
    let called = false;
    const fetchFn: typeof fetch = async () => {
      called = true;
      return new Response('{}');
    };
    const result = await envelopeBaseQuery({ fetchFn, isOnline: () => false, translate: () => 'offline!' })({ path: '/a' }, api, {});
    expect(called).toBe(false);
    expect(result.error).toEqual({ status: 'NO_INTERNET', message: 'offline!' });
    expect(actions).toEqual([noInternet('offline!')]);
  });

  it('skips a call of a kind already running', async () => {
    const { api, actions } = caller({ calling: ['/reservation/create'] });
    let called = false;
    const fetchFn: typeof fetch = async () => {
      called = true;
      return new Response('{}');
    };
    const result = await envelopeBaseQuery({ fetchFn, isOnline: () => true })({ path: '/reservation/create' }, api, {});
    expect(called).toBe(false);
    expect(result.error?.status).toBe('SKIPPED');
    expect(actions).toEqual([]);
  });

  it('leaves the network state alone for silent calls', async () => {
    const { api, actions } = caller();
    const result = await envelopeBaseQuery({ fetchFn: answer({ api: { status: 'failed', errorMessage: 'no' } }), isOnline: () => true })(
      { path: '/errorLog/create', silent: true },
      api,
      {},
    );
    expect(result.error?.status).toBe('FAILED');
    expect(actions).toEqual([]);
  });

  it('saves a download under the name the server gives, and reads a failed one as the envelope', async () => {
    const { api, actions } = caller();
    const saved: { file: Blob; fileName: string }[] = [];
    const saveFile = (file: Blob, fileName: string) => saved.push({ file, fileName });
    const archive: typeof fetch = async () =>
      new Response(new Uint8Array([0x50, 0x4b, 0x03, 0x04]), {
        headers: { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="warden-2030-01-07.zip"' },
      });
    const result = await envelopeBaseQuery({ fetchFn: archive, isOnline: () => true, saveFile })({ path: '/guest/export', download: true }, api, {});
    expect(result).toEqual({ data: { fileName: 'warden-2030-01-07.zip' } });
    expect(saved.map((file) => file.fileName)).toEqual(['warden-2030-01-07.zip']);
    expect(new Uint8Array(await saved[0]?.file.arrayBuffer())).toEqual(new Uint8Array([0x50, 0x4b, 0x03, 0x04]));
    expect(actions).toContainEqual(callFinished('/guest/export'));

    const refused = await envelopeBaseQuery({
      fetchFn: answer({ api: { status: 'failed', errorMessage: 'Only the guest can.' } }),
      isOnline: () => true,
      saveFile,
    })({ path: '/guest/export', download: true }, api, {});
    expect(refused).toEqual({ error: { status: 'FAILED', message: 'Only the guest can.' } });
    expect(saved).toHaveLength(1);
  });

  it('fails a download whose stream breaks off, and saves nothing', async () => {
    const { api } = caller();
    const saved: string[] = [];
    const broken: typeof fetch = async () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new Uint8Array([0x50, 0x4b]));
            controller.error(new Error('connection reset'));
          },
        }),
        { headers: { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="warden.zip"' } },
      );
    const result = await envelopeBaseQuery({ fetchFn: broken, isOnline: () => true, saveFile: (_file, name) => saved.push(name) })(
      { path: '/guest/export', download: true },
      api,
      {},
    );
    expect(result.error?.status).toBe('FETCH_ERROR');
    expect(result.error?.message).toContain('connection reset');
    expect(saved).toEqual([]);
  });

  it('sends no call of the session when there is none, and shows nothing (a screen still shown as a refused session is forgotten)', async () => {
    const sent: string[] = [];
    const fetchFn: typeof fetch = async (url) => {
      sent.push(String(url));
      return new Response(JSON.stringify({ api: { status: 'success' } }), { status: 200 });
    };
    const { api, actions } = caller({ auth: null });
    const result = await envelopeBaseQuery({ fetchFn, isOnline: () => true })({ path: '/guest/read', body: {}, auth: true }, api, {});
    expect(result.error?.status).toBe('NO_SESSION');
    expect(sent).toEqual([]);
    expect(actions).toEqual([]);
    // A call that needs no session still goes.
    await envelopeBaseQuery({ fetchFn, isOnline: () => true })({ path: '/guest/authenticate', body: {} }, api, {});
    expect(sent).toEqual(['/api/guest/authenticate']);
  });

  it('shows nothing for a call the app drops (aborted) while its answer is read or before it comes, and ends it', async () => {
    const ways: ((abort: AbortController) => typeof fetch)[] = [
      // The answer came; its body breaks off when the call is dropped.
      (abort) => async (_url, init) => {
        const body = new ReadableStream({
          start(controller) {
            init?.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
          },
        });
        const response = new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
        abort.abort();
        return response;
      },
      // The fetch itself is dropped.
      (abort) => async () => {
        abort.abort();
        throw new DOMException('aborted', 'AbortError');
      },
    ];
    for (const way of ways) {
      const abort = new AbortController();
      const { api, actions } = caller({ auth: { id: 3, token: 'tok' } });
      const result = await envelopeBaseQuery({ fetchFn: way(abort), isOnline: () => true })(
        { path: '/reservation/read_list', body: {}, auth: true },
        { ...api, signal: abort.signal },
        {},
      );
      expect(result.error?.status).toBe('ABORTED');
      expect(actions).toEqual([callStarted('/reservation/read_list'), callFinished('/reservation/read_list')]);
    }
  });
});

import { vi } from 'vitest';

/** What the fake server answers on a path: the payload beside `api`. */
type Payload = Record<string, unknown>;

/**
 * A fake `/api` for the client's tests, stubbed as the global `fetch` (undo
 * with `vi.unstubAllGlobals()`): each path answers the payload set for it,
 * as a successful envelope. A held path answers only when the test releases
 * its oldest waiting call, so that a test can look at the cache before a
 * re-read replaces it.
 */
export function fakeServer(payloads: Record<string, Payload> = {}) {
  const sent: { path: string; body: Payload }[] = [];
  const held = new Set<string>();
  const waiting: { path: string; answer: (payload: Payload) => void }[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const path = String(url).replace(/^\/api/, '');
    sent.push({ path, body: JSON.parse(String(init?.body)) as Payload });
    const payload = held.has(path) ? await new Promise<Payload>((answer) => waiting.push({ path, answer })) : (payloads[path] ?? {});
    return new Response(JSON.stringify({ api: { status: 'success' }, ...payload }), { status: 200 });
  });
  return {
    sent,
    /** Sets what `path` answers from now on. */
    answer(path: string, payload: Payload) {
      payloads[path] = payload;
    },
    /** Calls to `path` wait until `release`. */
    hold(path: string) {
      held.add(path);
    },
    /** How many calls to `path` wait. */
    waitingOn(path: string): number {
      return waiting.filter((call) => call.path === path).length;
    },
    /** Answers the oldest waiting call to `path` with `payload`. */
    release(path: string, payload: Payload) {
      const index = waiting.findIndex((call) => call.path === path);
      if (index === -1) throw new Error(`No call to ${path} is waiting`);
      const [call] = waiting.splice(index, 1);
      call?.answer(payload);
    },
  };
}

/** Lets the promises and timers queued now run (RTK Query's `onQueryStarted` continues after the call's action). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

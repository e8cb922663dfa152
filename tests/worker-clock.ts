/**
 * A fake clock for the page and its vision worker together. `page.clock`
 * fakes the page's timers only, and the worker samples on its own clock
 * (src/client/vision/worker-sampling.ts), so the worker's script is served with
 * a small fake clock in front. It starts at the page's fake time; it stands
 * still between the test's steps (so the time the analyser sees is exactly
 * the steps taken), and `runFor` moves both ahead, firing the worker's due
 * timers in order and waiting for each one's promise (a sample) before the
 * next, as if the time had passed with the worker keeping up.
 */
import type { APIResponse, Page } from '@playwright/test';

/** The vision worker's script as Vite names it in the build. */
const WORKER_SCRIPT = '**/assets/worker-*.js';

interface WorkerClock {
  runFor(ms: number): Promise<void>;
  setSystemTime(time: number): void;
}

/**
 * Runs first in the worker: replaces `Date.now`, `setTimeout` and
 * `clearTimeout` with a clock that starts at `start` and moves only when told.
 * A timer due now still fires at once (the first sample); later ones wait for
 * `runFor`, which fires them in order and waits for each one's promise.
 */
function installWorkerClock(start: number): void {
  const realSetTimeout = setTimeout;
  /** How long `runFor` waits for a sample in flight before moving on regardless (a camera that stalled). */
  const settleLimitMs = 5_000;
  let current = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => unknown }>();
  const running = new Set<Promise<unknown>>();
  const fire = (id: number): Promise<unknown> | undefined => {
    const timer = timers.get(id);
    if (timer === undefined) return undefined;
    timers.delete(id);
    const result = timer.callback();
    if (!(result instanceof Promise)) return undefined;
    const settled: Promise<unknown> = result.catch(() => undefined).finally(() => running.delete(settled));
    running.add(settled);
    return settled;
  };
  const settle = async () => {
    const limit = new Promise((resolve) => realSetTimeout(resolve, settleLimitMs));
    while (running.size > 0) {
      if ((await Promise.race([Promise.all([...running]).then(() => 'done'), limit.then(() => 'limit')])) === 'limit') return;
    }
  };
  Date.now = () => current;
  const fakeSetTimeout = (callback: () => unknown, ms = 0) => {
    const id = nextId++;
    timers.set(id, { at: current + Math.max(0, ms), callback });
    if (ms <= 0) realSetTimeout(() => void fire(id), 0);
    return id;
  };
  const fakeClearTimeout = (id: number) => {
    timers.delete(id);
  };
  Object.assign(globalThis, { setTimeout: fakeSetTimeout, clearTimeout: fakeClearTimeout });
  const advanceTo = async (target: number) => {
    await settle();
    for (;;) {
      const due = [...timers.entries()].filter(([, timer]) => timer.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      current = Math.max(current, due[1].at);
      await fire(due[0]);
      await settle();
    }
    current = Math.max(current, target);
  };
  const clock: WorkerClock = {
    runFor: (ms) => advanceTo(current + ms),
    setSystemTime(time) {
      // As page.clock.setSystemTime: a jump, not the time in between; what is due now fires once.
      current = time;
      for (const [id, timer] of timers) if (timer.at <= current) realSetTimeout(() => void fire(id), 0);
    },
  };
  Object.assign(globalThis, { __wardenWorkerClock: clock });
}

/** How far each page's fake time is ahead of the real time: a worker started later (a reload) starts there. */
const offsets = new WeakMap<Page, number>();

/** `page.clock.install({ time })` for the page and its vision worker (install before the page opens). */
export async function installClock(page: Page, time: number = Date.now()): Promise<void> {
  await page.clock.install({ time });
  offsets.set(page, time - Date.now());
  await page.route(WORKER_SCRIPT, async (route) => {
    let response: APIResponse;
    let script: string;
    try {
      response = await route.fetch();
      script = await response.text();
    } catch (error) {
      // The test ended while the page was still loading its worker (the fetch or its body): nothing is left to serve.
      if (page.isClosed() || /disposed|closed/i.test(String(error))) return;
      throw error;
    }
    const prelude = `(${installWorkerClock.toString()})(${Date.now() + (offsets.get(page) ?? 0)});\n`;
    // The body comes decoded: served as it is, without the encoding headers.
    await route.fulfill({ status: response.status(), contentType: 'text/javascript', body: prelude + script });
  });
}

function visionWorkers(page: Page) {
  return page.workers().filter((worker) => /\/assets\/worker-[^/]*\.js/.test(worker.url()));
}

/** `page.clock.runFor` for the page and its vision worker; resolves once the worker's samples in that time are done. */
export async function runFor(page: Page, ms: number): Promise<void> {
  offsets.set(page, (offsets.get(page) ?? 0) + ms);
  await page.clock.runFor(ms);
  for (const worker of visionWorkers(page)) {
    await worker.evaluate((step) => (globalThis as unknown as { __wardenWorkerClock: WorkerClock }).__wardenWorkerClock.runFor(step), ms);
  }
}

/** `page.clock.setSystemTime` for the page and its vision worker: the time jumps, and the timers due fire once. */
export async function setSystemTime(page: Page, time: number): Promise<void> {
  offsets.set(page, time - Date.now());
  await page.clock.setSystemTime(time);
  for (const worker of visionWorkers(page)) {
    await worker.evaluate((to) => (globalThis as unknown as { __wardenWorkerClock: WorkerClock }).__wardenWorkerClock.setSystemTime(to), time);
  }
}

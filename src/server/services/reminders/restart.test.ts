import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LocalPushService } from '../../test/push-service.ts';
import {
  bookOver,
  freePort,
  killed,
  PASS_DATABASE,
  postApi,
  readyGuestOver,
  setClockOver,
  startServerProcess,
  waitUntilUp,
} from '../../test/server-process.ts';
import { freshServerData } from '../../test/server-data.ts';

/**
 * Reminders survive their server (docs/reminders.md): a server process
 * killed with SIGKILL and started again on the same data (PGlite, and
 * PostgreSQL when the suite has one) neither
 * sends a reminder again nor forgets one that came due while it was down.
 */

const pushService = new LocalPushService();
beforeAll(() => pushService.listen());
afterAll(() => pushService.close());
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe(`reminders across a killed server on ${PASS_DATABASE}`, () => {
  it('are sent once, and the one due while the server was down goes out after it starts', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const env = { ...(await freshServerData(cleanups)), PUSH_ALLOW_HOSTS: '127.0.0.1' };
    let server = startServerProcess(port, env);
    try {
      await waitUntilUp(port);
      const guest = await readyGuestOver(baseUrl);
      const browser = pushService.newBrowser();
      const added = await postApi(baseUrl, '/guest/addPushDevice', { guest, device: browser.subscription('Chrome on Android') });
      expect(added.api.status).toBe('success');
      const first = await bookOver(baseUrl, guest, 2);
      const second = await bookOver(baseUrl, guest, 4);

      await setClockOver(baseUrl, first.startTime - 15 * 60_000);
      expect(browser.messages(pushService)).toHaveLength(1);

      // Killed, and started again on the same data: the first is not sent again.
      await killed(server);
      server = startServerProcess(port, env);
      await waitUntilUp(port);
      await setClockOver(baseUrl, first.startTime - 14 * 60_000);
      expect(browser.messages(pushService)).toHaveLength(1);

      // Killed before the second's moment, started after it: the second goes out, once.
      await killed(server);
      server = startServerProcess(port, env);
      await waitUntilUp(port);
      await setClockOver(baseUrl, second.startTime - 10 * 60_000);
      await setClockOver(baseUrl, second.startTime - 9 * 60_000);
      const messages = browser.messages(pushService);
      expect(messages.map((push) => browser.open(push).tag)).toEqual([`jail-${first.id}-${first.startTime}`, `jail-${second.id}-${second.startTime}`]);
    } finally {
      await killed(server);
    }
  }, 120_000);
});

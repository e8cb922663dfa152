/**
 * The Collaboration screen (docs/collaboration.md) against the built client
 * and the real server, at a phone and a desktop size, each tab scanned with
 * axe. The trigger calls a receiver in this process on 127.0.0.1, which the
 * server may reach because playwright.config.ts sets TRIGGER_ALLOW_HOSTS.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { book, call, checkA11y, createGuest, HOUR, readyGuest, signedIn, VIEWPORTS, watchMissingTexts } from './helpers.ts';

let receiver: Server;
let receiverUrl = '';
const received: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ url: request.url ?? '', headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

test.afterEach(async ({ request }) => {
  await request.post('/dev/clock', { data: { offsetMs: 0 } });
});

async function guestOf(request: Parameters<typeof call>[0], guest: { id: number; token: string }) {
  return (await call(request, '/guest/read', { guest: { id: guest.id, token: guest.token } })).guest as Record<string, unknown>;
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`collaboration at ${name}`, () => {
    test.use({ viewport, locale: 'en-US', serviceWorkers: 'block' });

    test('the Trigger tab: its switch, a POST trigger saved with a body, GET hides the body', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      const guest = await createGuest(request);
      await signedIn(page, guest, '/collaboration');
      await expect(page.getByRole('heading', { level: 1, name: 'Collaboration' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Trigger' })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('trigger-secret')).toHaveText(/^whsec_/);
      await expect(page.getByText('No calls yet.', { exact: false })).toBeVisible();
      await checkA11y(page, '/collaboration (trigger)');

      const triggerSwitch = page.getByRole('switch', { name: 'Call my URL when a jail finishes' });
      await triggerSwitch.check();
      await expect.poll(async () => (await guestOf(request, guest)).triggerEnabled).toBe(true);

      await page.getByLabel('URL', { exact: true }).fill(`${receiverUrl}/done`);
      await page.getByLabel('JSON body').fill('{"text": "Finished {{work}}"');
      await expect(page.getByText('The body must be JSON once the placeholders are filled', { exact: false })).toBeVisible();
      await page.getByLabel('JSON body').fill('{"text": "Finished {{work}}", "minutes": {{achievement}}}');
      await page.getByRole('button', { name: 'Update' }).click();
      await expect(page.getByText('Saved.')).toBeVisible();
      expect(await guestOf(request, guest)).toMatchObject({
        triggerMethod: 'POST',
        triggerUrl: `${receiverUrl}/done`,
        triggerBody: '{"text": "Finished {{work}}", "minutes": {{achievement}}}',
      });

      // An internal address is refused with the server's words.
      await page.getByLabel('URL', { exact: true }).fill('http://169.254.169.254/latest');
      await page.getByRole('button', { name: 'Update' }).click();
      await expect(page.getByText('The trigger URL points into a private or reserved network', { exact: false })).toBeVisible();

      await page.reload();
      await expect(page.getByLabel('URL', { exact: true })).toHaveValue(`${receiverUrl}/done`);
      await expect(page.getByRole('switch', { name: 'Call my URL when a jail finishes' })).toBeChecked();
      await page.getByLabel('Method').selectOption('GET');
      await expect(page.getByLabel('JSON body')).toHaveCount(0);
      await expect(page.getByTestId('trigger-get-example')).toContainText('work=Write+the+report');
      await page.getByRole('button', { name: 'Update' }).click();
      await expect(page.getByText('Saved.')).toBeVisible();
      expect(await guestOf(request, guest)).toMatchObject({ triggerMethod: 'GET', triggerBody: '{"text": "Finished {{work}}", "minutes": {{achievement}}}' });
      expect(missing).toEqual([]);
    });

    test('the Webhook tab: its switch, a new address shown once, and the sample builder', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      const guest = await createGuest(request);
      await signedIn(page, guest, '/collaboration');
      await page.getByRole('tab', { name: 'Webhook' }).click();
      await expect(page.getByRole('tab', { name: 'Webhook' })).toHaveAttribute('aria-selected', 'true');
      const address = page.getByTestId('webhook-address');
      await expect(address).toHaveText(/\/hooks\/reservation\/••••[A-Za-z0-9_-]{4}$/);
      await checkA11y(page, '/collaboration (webhook)');

      await page.getByRole('switch', { name: 'Accept bookings at my webhook address' }).check();
      await expect.poll(async () => (await guestOf(request, guest)).webhookEnabled).toBe(true);

      await page.getByRole('button', { name: 'Make a new address' }).click();
      await expect(page.getByText("Copy it now; it won't be shown again.")).toBeVisible();
      const shown = (await address.textContent()) ?? '';
      expect(shown).toMatch(/\/hooks\/reservation\/[A-Za-z0-9_-]{43}$/);
      await page.reload();
      await page.getByRole('tab', { name: 'Webhook' }).click();
      await expect(address).toHaveText(`${new URL(page.url()).origin}/hooks/reservation/••••${shown.slice(-4)}`);
      await expect(page.getByText("Copy it now; it won't be shown again.")).toHaveCount(0);

      const sample = page.getByTestId('webhook-sample');
      await page.getByLabel('Duration').selectOption({ label: '1:30' });
      await page.getByLabel('Repeat').selectOption({ label: 'Weekly' });
      await page.getByLabel('Work', { exact: true }).fill('Practise the piano');
      const built = JSON.parse((await sample.textContent()) ?? '{}') as Record<string, unknown>;
      expect(built).toMatchObject({ duration: 90, repeatType: 'weekly', work: 'Practise the piano' });
      expect(built.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(built.time).toMatch(/^\d{2}:\d{2}$/);
      await page.getByLabel('Leave out date and time to start the jail now.').check();
      expect(JSON.parse((await sample.textContent()) ?? '{}')).toEqual({ duration: 90, repeatType: 'weekly', work: 'Practise the piano' });
      await expect(page.getByText('"error": "token is invalid."')).toBeVisible();
      expect(missing).toEqual([]);
    });

    test('the last calls after a jail finishes', async ({ page, request }) => {
      const guest = await readyGuest(request);
      const auth = { id: guest.id, token: guest.token };
      const saved = await call(request, '/guest/update', {
        guest: { ...auth, triggerEnabled: true, triggerMethod: 'POST', triggerUrl: `${receiverUrl}/jail-done`, triggerBody: '' },
      });
      expect(saved.api).toEqual({ status: 'success' });
      const jail = await book(request, guest, 1);
      // The jail starts, nobody comes, and it finishes: the trigger is called at once.
      await request.post('/dev/clock', { data: { offsetMs: jail.startTime + 60_000 - Date.now() } });
      await request.post('/dev/clock', { data: { offsetMs: jail.startTime + HOUR + 60_000 - Date.now() } });
      const call0 = received.find((entry) => entry.url === '/jail-done');
      expect(call0?.headers['webhook-signature']).toMatch(/^v1,/);
      expect(JSON.parse(call0?.body ?? '{}')).toMatchObject({ work: 'Write the report', duration: 60, achievement: 0, time: '10:00' });
      received.length = 0;

      await signedIn(page, guest, '/collaboration');
      const delivery = page.getByTestId('trigger-delivery');
      await expect(delivery).toHaveCount(1);
      await expect(delivery.getByTestId('trigger-delivery-status')).toHaveText('Delivered');
      await expect(delivery).toContainText('Write the report');
      await expect(delivery).toContainText('HTTP 204');
      await checkA11y(page, '/collaboration (deliveries)');
    });
  });
}

import { expect, test } from '@playwright/test';
import type { ServerToGuestEvents, WebrtcHandshakeDelivered } from '../src/shared/relay.ts';
import { connectGuest, type GuestSocket, setClockOffset } from './guest-device.ts';
import { freshCode, totpCode } from '../src/server/test/wardens.ts';
import { book, checkA11y, createWarden, freshAddress, readyGuest, signedIn, tokyoTime, watchMissingTexts } from './helpers.ts';

/**
 * The wardens' console against the real server, relay and scheduler: a
 * warden signs in, enrolling an authenticator app at the first sign-in,
 * sees a guest's live jail (the guest is a socket.io client in this
 * process), opens it and talks to the guest.
 */

type WardenDialog = Parameters<ServerToGuestEvents['warden_dialog_event_to_guest']>[0];

test('a warden enrols a second factor and signs in, sees a live jail, opens it, talks to the guest and calls for live video', async ({
  page,
  context,
  browser,
  request,
  baseURL,
}) => {
  if (baseURL === undefined) throw new Error('playwright.config.ts sets baseURL');
  // The whole console in one walk (enrolment, two languages, three sizes, eleven accessibility checks): past 90 s on a loaded machine.
  test.slow();
  await page.setViewportSize({ width: 1280, height: 800 });
  const missing = watchMissingTexts(page);
  // The console lists every live jail on this worker's server, and a spec before this one may have left
  // one live when it set the clock back. Time first moves on 40 days, past anything they could have booked,
  // so that every such jail ends; this jail is at 06:00 Tokyo time, an hour no other spec books, so that
  // none starts beside it. The counts below are this test's own.
  await setClockOffset(request, tokyoTime(40, 6) - Date.now());
  await setClockOffset(request, 0);
  const guest = await readyGuest(request);
  const reservation = await book(request, guest, 1, { startTime: tokyoTime(1, 6) });
  const warden = await createWarden(request, { enrolled: false });

  // Into the jail by the server's clock: the scheduler starts it at once.
  await setClockOffset(request, reservation.startTime + 60_000 - Date.now());
  let device: GuestSocket | undefined;
  try {
    device = await connectGuest(baseURL, guest);
    const heard: WardenDialog[] = [];
    device.on('warden_dialog_event_to_guest', (dialog) => heard.push(dialog));

    await freshAddress(context);
    await page.goto('/warden');
    await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
    await checkA11y(page, 'console sign-in');
    await page.getByLabel('E-mail address').fill(warden.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'The e-mail address or password is wrong.' })).toBeVisible();
    await page.getByLabel('Password').fill(warden.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    // The first sign-in sets up the second factor: the QR code, or the key to type in.
    await expect(page.getByRole('heading', { name: 'Set up your second factor' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'QR code to add Warden to your authenticator app' })).toBeVisible();
    await checkA11y(page, 'console enrolment');
    const secret = ((await page.locator('.enrol-key').textContent()) ?? '').replaceAll(' ', '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel('Language').selectOption('ja');
    await expect(page.getByRole('heading', { name: '2段階認証の設定' })).toBeVisible();
    await expect(page.getByRole('img', { name: '認証アプリにWardenを追加するためのQRコード' })).toBeVisible();
    await expect(page.getByLabel('確認コード（6桁）')).toBeVisible();
    await checkA11y(page, 'console enrolment in Japanese');
    await page.getByLabel('言語').selectOption('en');
    await page.getByLabel('6-digit code').fill(totpCode(secret, Date.now() - 5 * 60_000));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'The code is wrong or has already been used.' })).toBeVisible();
    await page.getByLabel('6-digit code').fill(freshCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();

    await expect(page.getByText(`Signed in as ${warden.title}`)).toBeVisible();
    await expect(page.getByText('Connected to the relay')).toBeVisible();
    const card = page.getByRole('article', { name: guest.title });
    await expect(card).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Live jails 1', exact: true })).toBeVisible();
    await expect(card).toContainText('Write the report');
    await expect(card).toContainText('In jail');
    await expect(card.getByText('Connected', { exact: true })).toBeVisible();
    await expect(card.getByRole('img', { name: new RegExp(`Patrol image of ${guest.title}`) })).toBeVisible();
    await checkA11y(page, 'console with live jails');

    await card.getByRole('button', { name: 'Open' }).click();
    const panel = page.getByRole('region', { name: `${guest.title}: Write the report` });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('heading', { name: `${guest.title}: Write the report` })).toBeFocused();
    await expect(panel.getByRole('list', { name: 'Timeline' }).getByRole('img')).toHaveCount(1);
    await expect(panel.getByRole('checkbox', { name: '1 Leave the seat' })).toBeChecked();

    const text = 'Back to the report, please.';
    await panel.getByLabel('Say to the guest').fill(text);
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect(panel.getByLabel('Say to the guest')).toHaveValue('');
    await expect.poll(() => heard.find((event) => event.dialog.by === 'human')?.dialog.text).toBe(text);
    await expect(panel.getByRole('list', { name: 'Timeline' })).toContainText(`Warden: ${text}`);
    await checkA11y(page, 'console with the jail open');

    // Watch live: the console's offer (receive-only video) reaches the guest's device, which hangs up.
    const offered = new Promise<WebrtcHandshakeDelivered>((resolve) => {
      device?.on('webrtc_handshake', (message) => {
        if (message.type === 'offer') resolve(message);
      });
    });
    await panel.getByRole('button', { name: 'Watch live' }).click();
    await expect(panel.getByRole('button', { name: 'Stop watching' })).toBeVisible();
    const offer = await offered;
    expect(offer.from).toMatch(/^warden:\d+$/);
    expect(offer.description?.sdp).toMatch(/m=video[\s\S]*a=recvonly/);
    expect(await device.emitWithAck('webrtc_handshake', { to: offer.from, type: 'hangup' })).toEqual({ ok: true });
    await expect(panel.getByText('The guest ended the video.')).toBeVisible();

    // A tablet held upright: the grid above, the open jail below, still clean.
    await page.setViewportSize({ width: 768, height: 1024 });
    await expect(panel.getByRole('button', { name: 'Send' })).toBeVisible();
    await checkA11y(page, 'console on a tablet');

    // A callup's notice follows a change of language.
    await page.setViewportSize({ width: 360, height: 640 });
    await panel.getByRole('button', { name: 'Call up' }).click();
    await expect(panel.getByRole('status').filter({ hasText: 'Callup sent.' })).toBeVisible();
    await page.getByLabel('Language').selectOption('ja');
    await expect(panel.getByRole('status').filter({ hasText: '呼び出しました。' })).toBeVisible();

    // Finishing asks in the page, here in Japanese on a phone: Escape keeps the jail running.
    await panel.getByLabel('理由（必須・ゲストに表示されます）').fill('Ended from the console.');
    await panel.getByRole('button', { name: 'ジェイルを終了' }).click();
    const askJa = page.getByRole('dialog', { name: `${guest.title}さんのジェイルを今すぐ終了しますか？` });
    await expect(askJa).toContainText('ゲストには入力した理由が表示されます。');
    await expect(askJa.getByRole('button', { name: '閉じる' })).toBeFocused();
    // A guest's long title wraps inside the sheet, which stays within the phone's width.
    expect(await askJa.evaluate((sheet) => sheet.getBoundingClientRect().left >= 0 && sheet.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: '/tmp/shots-6/console-finish-ja-360.png' });
    await checkA11y(page, 'console finish confirmation in Japanese on a phone');
    await page.keyboard.press('Escape');
    await expect(askJa).toBeHidden();
    await expect(panel.getByRole('button', { name: 'ジェイルを終了' })).toBeFocused();
    await page.getByLabel('言語').selectOption('en');

    // The warden ends the jail: the header says so instead of a live status,
    // and the grid empties with a word on what will show there.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByRole('heading', { name: 'Live jails 1', exact: true })).toBeVisible();
    await panel.getByRole('button', { name: 'Finish the jail' }).click();
    const ask = page.getByRole('dialog', { name: `Finish the jail of ${guest.title} now?` });
    await expect(ask).toContainText('The jail ends at once, and the guest sees your reason.');
    await page.screenshot({ path: '/tmp/shots-6/console-finish-en-1280.png' });
    await ask.getByRole('button', { name: 'Finish the jail' }).click();
    await expect(ask).toBeHidden();
    await expect(panel.getByRole('status').filter({ hasText: 'This jail has ended.' })).toBeVisible();
    await expect(panel.getByRole('list', { name: 'Timeline' })).toContainText('Why the jail ended early: Ended from the console.');
    const header = panel.locator('header.panel-header');
    await expect(header).not.toContainText('In jail');
    await expect(header).not.toContainText(' left');
    await expect(page.getByRole('heading', { name: 'Live jails 0', exact: true })).toBeVisible();
    await expect(page.getByText('No jail is live right now.')).toBeVisible();
    await checkA11y(page, 'console after the jail ended');

    // The guest's history tells this end from the others.
    const guestContext = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'en-US',
      timezoneId: 'Asia/Tokyo',
      serviceWorkers: 'block',
    });
    const guestPage = await guestContext.newPage();
    await signedIn(guestPage, guest, '/reservations');
    await guestPage.getByRole('button', { name: 'See history' }).click();
    const ended = guestPage.locator('#reservation-history li').filter({ has: guestPage.locator(`a[href="/reservation/${reservation.id}"]`) });
    await expect(ended).toContainText('Ended by a human warden');
    await guestContext.close();

    // The same in Japanese on a phone: one word for each thing, nothing sideways.
    await page.setViewportSize({ width: 360, height: 640 });
    await page.getByLabel('Language').selectOption('ja');
    await expect(page.getByRole('heading', { name: 'ライブ中のジェイル 0件', exact: true })).toBeVisible();
    await expect(page.getByText('このジェイルは終了しました。')).toBeVisible();
    await expect(page.getByText('現在ライブ中のジェイルはありません。')).toBeVisible();
    await expect(panel.getByRole('list', { name: 'タイムライン' })).toContainText('早めに終了した理由: Ended from the console.');
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await checkA11y(page, 'console in Japanese on a phone');
    await page.getByLabel('言語').selectOption('en');

    // A new password asks for the current one, beside the console.
    await page.getByRole('button', { name: 'Change password' }).click();
    const passwordPanel = page.getByRole('region', { name: 'Change password' });
    await passwordPanel.getByLabel('Current password').fill('not the password');
    await passwordPanel.getByLabel('New password').fill('a new long passphrase');
    await passwordPanel.getByRole('button', { name: 'Save the new password' }).click();
    await expect(passwordPanel.getByRole('alert')).toHaveText('The current password is wrong. Enter the password of your account.');
    await checkA11y(page, 'console password change');
    await passwordPanel.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();

    // Enrolled: the next sign-in asks for the code only, here in Japanese.
    await page.getByLabel('Language').selectOption('ja');
    await page.getByLabel('メールアドレス').fill(warden.email);
    await page.getByLabel('パスワード').fill(warden.password);
    await page.getByRole('button', { name: 'ログイン' }).click();
    await expect(page.getByRole('heading', { name: '確認コードの入力' })).toBeVisible();
    await expect(page.getByRole('img')).toHaveCount(0);
    await checkA11y(page, 'console code in Japanese');
    await page.getByLabel('確認コード（6桁）').fill(freshCode(secret));
    await page.getByRole('button', { name: '確認' }).click();
    await expect(page.getByText(`${warden.title}としてログイン中`)).toBeVisible();
    await page.getByRole('button', { name: 'ログアウト' }).click();
    await page.getByLabel('言語').selectOption('en');
    expect(missing).toEqual([]);
  } finally {
    device?.close();
    await setClockOffset(request, 0);
  }
});

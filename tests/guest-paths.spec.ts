/**
 * The guest's ways in and through (issue 35) against the built client and the
 * real server, at a phone and a desktop size, in English and Japanese: the
 * intro's Sign up and Sign in on every slide and a returning guest's landing
 * on the sign-in screen; the phone gate (why, the format, the number on one
 * line, another code after the wait, and back to the booking as it was); the
 * add button where a person looks for it; the terms page in the browser's or
 * the app's language; a skip confirmed. Each screen is photographed to
 * SHOTS_DIR when it is set.
 */
import { expect, test, type Page } from '@playwright/test';
import {
  book,
  checkA11y,
  codeIn,
  createGuest,
  freshAddress,
  lastMessageTo,
  readyGuest,
  signedIn,
  VIEWPORTS,
  verifiedGuest,
  watchMissingTexts,
} from './helpers.ts';

const WORDS = {
  en: {
    signUp: 'Sign up',
    signIn: 'Sign in',
    goToSlide: (number: number) => `Go to slide ${number}`,
    logOut: 'Log out',
    work: 'Work',
    startDate: 'Start date',
    book: 'Book',
    why: 'Booking a jail needs a phone number: while a jail runs, a human warden may call you.',
    example: 'For example 090-1234-5678, or with the country code: +81 90-1234-5678.',
    phone: 'Phone number',
    sendCode: 'Send a code',
    code: 'Code from the SMS',
    resendIn: /You can ask for a new code in \d+ s\./,
    resend: 'Send a new code',
    register: 'Register',
    booked: 'Booked',
    add: 'Book a jail',
    skip: 'Skip this time',
    skipped: /^Skipped .+\. The jail repeats as usual after it\.$/,
    terms: 'Terms and Conditions',
  },
  ja: {
    signUp: '新規登録',
    signIn: 'ログイン',
    goToSlide: (number: number) => `${number}枚目へ`,
    logOut: 'ログアウト',
    work: '作業内容',
    startDate: '開始日',
    book: '予約する',
    why: 'ジェイルの予約には電話番号が必要です。ジェイル中に、人間の看守から電話することがあります。',
    example: '例：090-1234-5678（国番号から入力する場合は +81 90-1234-5678）',
    phone: '電話番号',
    sendCode: '認証コードを送る',
    code: '認証コード（SMS）',
    resendIn: /\d+秒後に新しいコードを請求できます。/,
    resend: '新しいコードを送る',
    register: '登録する',
    booked: '予約しました',
    add: 'ジェイルを予約',
    skip: '今回はスキップ',
    skipped: /のジェイルをスキップしました。次回からはいつもどおり繰り返します。$/,
    terms: '利用規約',
  },
} as const;

/** Photographs the page when SHOTS_DIR is set (the developer's look at what a test shows). */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.SHOTS_DIR;
  if (dir !== undefined && dir !== '') await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

for (const language of ['en', 'ja'] as const) {
  const words = WORDS[language];
  for (const { name, viewport } of VIEWPORTS) {
    const size = viewport.width;
    test.describe(`guest paths at ${name} in ${language}`, () => {
      test.use({ viewport, locale: language === 'ja' ? 'ja-JP' : 'en-US', serviceWorkers: 'block' });

      test('the intro offers Sign up and Sign in on every slide; signed out, the guest lands on sign-in, then and on the next visit', async ({
        page,
        request,
      }) => {
        const missing = watchMissingTexts(page);
        await page.goto('/');
        for (const slide of [1, 2, 3, 4]) {
          await page.getByRole('button', { name: words.goToSlide(slide) }).click();
          await expect(page.getByRole('link', { name: words.signUp })).toHaveAttribute('href', '/signup');
          await expect(page.getByRole('link', { name: words.signIn })).toHaveAttribute('href', '/signin');
        }
        await page.getByRole('button', { name: words.goToSlide(1) }).click();
        await checkA11y(page, `/ (${language})`);
        await shot(page, `intro-${size}-${language}`);

        const guest = await createGuest(request, { language });
        await signedIn(page, guest, '/guest/show');
        await page.getByRole('button', { name: words.logOut }).click();
        await expect(page).toHaveURL(/\/signin$/);
        await page.goto('/');
        await expect(page).toHaveURL(/\/signin$/);
        await expect(page.getByRole('heading', { level: 1, name: words.signIn })).toBeVisible();
        expect(missing).toEqual([]);
      });

      test('the phone gate says why and how, sends another code after the wait, and returns to the booking as it was', async ({ page, context, request }) => {
        const missing = watchMissingTexts(page);
        // Codes are limited per client address too: this test's page has an address of its own.
        await freshAddress(context);
        const guest = await verifiedGuest(request, { language });
        await page.clock.install();
        await signedIn(page, guest, '/reservation/add');
        const work = `Chapter ${guest.id}`;
        await page.getByLabel(words.work, { exact: true }).fill(work);
        const day = page.getByRole('group', { name: words.startDate }).getByRole('radio').nth(3);
        await day.check();
        const chosen = await day.getAttribute('value');
        await page.getByRole('button', { name: words.book, exact: true }).click();

        await expect(page).toHaveURL(/\/guest\/editPhone$/);
        await expect(page.getByText(words.why)).toBeVisible();
        const field = page.getByLabel(words.phone, { exact: true });
        await expect(field).toHaveAccessibleDescription(words.example);
        await checkA11y(page, `/guest/editPhone from a booking (${language})`);
        await shot(page, `phone-gate-${size}-${language}`);
        const digits = `080${String(Date.now()).slice(-8)}`;
        const typed = `+81 ${digits.slice(1, 3)}-${digits.slice(3, 7)}-${digits.slice(7)}`;
        await field.fill(typed);
        await page.getByRole('button', { name: words.sendCode }).click();

        // The number on one line, left to right; another code only once the server's wait is over.
        const number = page.locator('bdi.phone-number');
        await expect(number).toHaveText(typed);
        await expect(number).toHaveCSS('white-space', 'nowrap');
        const lineHeight = Number.parseFloat(await number.evaluate((element) => getComputedStyle(element).lineHeight));
        expect((await number.boundingBox())?.height ?? 0).toBeLessThan(lineHeight * 1.5);
        await expect(page.getByText(words.resendIn)).toBeVisible();
        await expect(page.getByRole('button', { name: words.resend })).toHaveCount(0);
        await checkA11y(page, `/guest/editPhone, the code (${language})`);
        await shot(page, `phone-code-${size}-${language}`);
        const sentTo = `+81${digits.slice(1)}`;
        const first = codeIn((await lastMessageTo(request, sentTo, 'sms')).text);
        await request.post('/dev/clock', { data: { offsetMs: 61_000 } });
        try {
          await page.clock.fastForward(61_000);
          await page.getByRole('button', { name: words.resend }).click();
          await expect(page.getByText(words.resendIn)).toBeVisible();
        } finally {
          await request.post('/dev/clock', { data: { offsetMs: 0 } });
        }
        let code = first;
        await expect.poll(async () => (code = codeIn((await lastMessageTo(request, sentTo, 'sms')).text))).not.toBe(first);

        await page.getByLabel(words.code).fill(code);
        await page.getByRole('button', { name: words.register }).click();
        await expect(page).toHaveURL(/\/reservation\/add$/);
        await expect(page.getByLabel(words.work, { exact: true })).toHaveValue(work);
        await expect(page.getByRole('group', { name: words.startDate }).locator(`input[value="${chosen}"]`)).toBeChecked();
        await page.getByRole('button', { name: words.book, exact: true }).click();
        await expect(page).toHaveURL(/\/reservation\/added$/);
        expect(missing).toEqual([]);
      });

      test('the add button: beside the heading on a desktop, clear of the last jail on a phone; a skip is confirmed', async ({ page, request }) => {
        const missing = watchMissingTexts(page);
        const guest = await readyGuest(request, { language });
        for (const days of [2, 3, 4, 5, 6]) await book(request, guest, days);
        const weekly = await book(request, guest, 1, { repeatType: 'weekly' });
        await signedIn(page, guest, '/reservations');
        const add = page.getByRole('link', { name: words.add });
        await expect(add).toBeVisible();
        const heading = page.getByRole('heading', { level: 1 });
        const addBox = (await add.boundingBox())!;
        const mainBox = (await page.locator('.reservations-screen').boundingBox())!;
        if (size >= 1024) {
          // In the content column, on the heading's line, at its end.
          const headingBox = (await heading.boundingBox())!;
          expect(Math.abs(addBox.y + addBox.height / 2 - (headingBox.y + headingBox.height / 2))).toBeLessThan(addBox.height);
          expect(addBox.x + addBox.width).toBeLessThanOrEqual(mainBox.x + mainBox.width + 1);
          expect(addBox.x).toBeGreaterThan(mainBox.x + mainBox.width / 2);
          await expect(add).toHaveText(words.add);
        } else {
          // Floating at the bottom right; scrolled to the end, the last jail is clear of it.
          await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
          const last = (await page.locator('.reservation-list > li').last().boundingBox())!;
          const floating = (await add.boundingBox())!;
          expect(last.y + last.height <= floating.y || floating.x >= last.x + last.width).toBe(true);
        }
        await shot(page, `list-${size}-${language}`);

        await page.goto(`/reservation/${weekly.id}`);
        await page.getByRole('button', { name: words.skip }).click();
        await page.getByRole('dialog').getByRole('button', { name: words.skip }).click();
        const toast = page.getByRole('status').filter({ hasText: words.skipped });
        await expect(toast).toBeVisible();
        await shot(page, `skipped-${size}-${language}`);
        expect(missing).toEqual([]);
      });

      test('the terms page opened directly is in the browser’s language, or the one chosen in the app', async ({ page }) => {
        await page.goto('/terms.html');
        await expect(page).toHaveURL(new RegExp(`/terms\\.html#${language}$`));
        await expect(page.getByRole('heading', { level: 1, name: words.terms })).toBeVisible();
        await expect(page.getByRole('heading', { level: 1, name: WORDS[language === 'en' ? 'ja' : 'en'].terms })).toBeHidden();
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await shot(page, `terms-${size}-${language}`);

        // The language chosen in the app wins over the browser's.
        const other = language === 'en' ? 'ja' : 'en';
        await page.goto('/');
        await page.getByRole('radio', { name: other === 'ja' ? '日本語' : 'English' }).check();
        await page.goto('/privacy.html');
        await expect(page).toHaveURL(new RegExp(`/privacy\\.html#${other}$`));
        await expect(page.locator('html')).toHaveAttribute('lang', other);
      });
    });
  }
}

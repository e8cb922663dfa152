/**
 * Forms and their errors (docs/client.md, Global UI): at a phone and a
 * desktop size, in English and Japanese, a refused sign-in, a sign-up with
 * several wrong fields at once and a refused booking each say what is wrong
 * beside the field (described by it, marked invalid, announced), with no
 * banner and no overlay; what was typed stays, and the page around the form
 * stays in reach. One page per size; the languages take turns on it.
 */
import { expect, test, type Page } from '@playwright/test';
import { MESSAGES } from '../src/shared/messages.ts';
import { accountTexts } from '../src/client/features/account/texts.ts';
import { texts as bookingTexts } from '../src/client/features/reservations/texts.ts';
import { book, call, expectFieldError, readyGuest, signInPage, VIEWPORTS, watchMissingTexts, type TestGuest } from './helpers.ts';

const LANGUAGES = ['en', 'ja'] as const;
type Language = (typeof LANGUAGES)[number];

/** A screenshot for a person to look at, when SHOTS_DIR names where (README, Tests). */
async function shot(page: Page, name: string) {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/${name}.png`, fullPage: true });
}

async function refusedSignIn(page: Page, guest: TestGuest, language: Language, label: string) {
  const words = accountTexts[language];
  await page.goto('/signin');
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  await page.getByLabel(words.account_title_or_email).fill(guest.title);
  await page.getByLabel(words.account_password, { exact: true }).fill('not the password');
  await page.getByRole('button', { name: words.signin_submit, exact: true }).click();
  await expectFieldError(page.getByLabel(words.account_password, { exact: true }), MESSAGES.sign_in_failed[language]);
  await expect(page.getByLabel(words.account_title_or_email)).toHaveValue(guest.title);
  await expect(page.getByLabel(words.account_password, { exact: true })).toHaveValue('not the password');
  await shot(page, `signin-${label}`);
  // Nothing covers the way out: the link takes the pointer.
  await page.getByRole('link', { name: words.signin_forgot }).click({ trial: true });
}

async function signUpWithSeveralWrongFields(page: Page, language: Language, label: string) {
  const words = accountTexts[language];
  await page.goto('/signup');
  const title = page.getByLabel(words.account_title, { exact: true });
  const email = page.getByLabel(words.account_email, { exact: true });
  const password = page.getByLabel(words.account_password, { exact: true });
  await title.fill('at@sign');
  await email.fill('no address');
  await password.fill('short');
  await page.getByRole('button', { name: words.signup_submit, exact: true }).click();
  await expectFieldError(title, MESSAGES.title_invalid[language]);
  await expectFieldError(email, MESSAGES.email_invalid[language]);
  await expectFieldError(password, MESSAGES.password_invalid[language]);
  await expectFieldError(page.getByLabel(words.signup_terms_agree), words.alert_terms);
  await expect(title).toHaveValue('at@sign');
  await expect(email).toHaveValue('no address');
  await expect(password).toHaveValue('short');
  await shot(page, `signup-${label}`);
}

/** A booking over one the guest has: the server's refusal, under the start time (the hour and the minutes). */
async function overlappingBooking(page: Page, guest: TestGuest, language: Language, label: string) {
  const words = bookingTexts[language];
  await signInPage(page, guest);
  await page.goto('/reservation/add');
  await page.getByRole('group', { name: words.start_date }).getByRole('radio').nth(3).check();
  const hour = page.getByLabel(words.hour, { exact: true });
  await hour.selectOption('10');
  await page.getByRole('radio', { name: ':30' }).check();
  await page.getByLabel(words.work, { exact: true }).fill('Proofread');
  await page.getByRole('button', { name: words.book, exact: true }).click();
  await expectFieldError(page.getByRole('group', { name: words.start_time, exact: true }), MESSAGES.reservation_overlap[language].split('{')[0] ?? '');
  await expect(page).toHaveURL(/\/reservation\/add$/);
  await expect(hour).toHaveValue('10');
  await expect(page.getByLabel(words.work, { exact: true })).toHaveValue('Proofread');
  await shot(page, `booking-${label}`);
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`forms at ${name}`, () => {
    test.use({ viewport, locale: 'en-US', timezoneId: 'Asia/Tokyo', serviceWorkers: 'block' });

    test('errors stand beside their fields, several at once, with no banner; what was typed stays', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      let guest = await readyGuest(request);
      await book(request, guest, 3);
      for (const language of LANGUAGES) {
        const label = `${viewport.width}-${language}`;
        await refusedSignIn(page, guest, language, label);
        await signUpWithSeveralWrongFields(page, language, label);
        await overlappingBooking(page, guest, language, label);
        if (language === 'en') {
          // The next language, chosen on the account page, and signed out for the forms before sign-in.
          await page.goto('/guest/show');
          await page.getByRole('group', { name: 'Language', exact: true }).getByRole('radio', { name: '日本語' }).check();
          await page.getByRole('button', { name: accountTexts.ja.show_logout }).click();
          await expect(page).not.toHaveURL(/\/guest\/show$/);
          // Logging out ended the session: the next booking signs in anew.
          const signedIn = await call(request, '/guest/authenticate', { guest: { title: guest.title, password: guest.password } });
          guest = { ...guest, token: (signedIn.guest as { token: string }).token };
        }
      }
      expect(missing).toEqual([]);
    });
  });
}

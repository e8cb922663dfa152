/**
 * The account screens and the introduction against the built client and the
 * real server (docs/client.md, Form rules): sign-up with the terms rule, e-mail
 * verification from the outbox, sign-in and its error, the password reset
 * with its mismatch rule, title/e-mail edits, the phone code from the outbox
 * and a wrong code, logout; at a phone and a desktop size, each screen
 * scanned with axe (WCAG 2.1 AA).
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { accountTexts } from '../src/client/features/account/texts.ts';
import {
  call,
  checkA11y,
  codeIn,
  createGuest,
  createWarden,
  expectFieldError,
  freshAddress,
  lastMailTo,
  lastMessageTo,
  linkIn,
  signInPage,
  uniqueAddress,
  uniqueName,
  VIEWPORTS,
  watchMissingTexts,
} from './helpers.ts';

/** The network banner shows `message`; OK clears it. */
async function expectBanner(page: Page, message: string | RegExp) {
  const banner = page.getByRole('alertdialog');
  await expect(banner).toContainText(message);
  await banner.getByRole('button', { name: 'OK' }).click();
  await expect(banner).toHaveCount(0);
}

async function settled(page: Page) {
  await expect(page.getByTestId('loading-overlay')).toHaveCount(0);
}

/**
 * One guest per viewport, made by the sign-up test and used by the next ones
 * (the server allows 10 sign-ups per address and hour, shared by the run).
 */
interface Account {
  title: string;
  email: string;
  password: string;
}

async function signInByApi(page: Page, request: APIRequestContext, account: Account) {
  const answer = await call(request, '/guest/authenticate', { guest: { title: account.title, password: account.password } });
  expect(answer.api.status).toBe('success');
  const guest = answer.guest as { id: number; token: string };
  await signInPage(page, guest);
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe
    .serial(`account at ${name}`, () => {
      test.use({ viewport, locale: 'en-US', serviceWorkers: 'block' });
      const account: Account = { title: '', email: '', password: 'a long password' };

      test('the intro carousel leads through four slides, with sign-up and sign-in under each', async ({ page }) => {
        const missing = watchMissingTexts(page);
        await page.goto('/');
        await expect(page.getByRole('heading', { level: 2, name: 'Self-control, supported' })).toBeVisible();
        await expect(page.getByRole('group', { name: 'Language', exact: true })).toBeVisible();
        await checkA11y(page, '/ slide 1');
        await page.getByRole('button', { name: 'Next' }).click();
        await expect(page.getByRole('heading', { level: 2, name: 'Book in the app' })).toBeVisible();
        await page.getByRole('button', { name: 'Next' }).click();
        await expect(page.getByRole('link', { name: 'Check your camera' })).toHaveAttribute('href', '/camera-check');
        await page.getByRole('button', { name: 'Go to slide 4' }).click();
        await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
        await checkA11y(page, '/ slide 4');
        await page.getByRole('link', { name: 'Sign in' }).click();
        await expect(page).toHaveURL(/\/signin$/);
        // From the first slide as well.
        await page.goto('/');
        await page.getByRole('link', { name: 'Sign up' }).click();
        await expect(page).toHaveURL(/\/signup$/);
        expect(missing).toEqual([]);
      });

      test('the terms page opens from sign-up in a tab of its own, in both languages, with the contact address', async ({ page, context }) => {
        await page.goto('/signup');
        const [terms] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Terms and Conditions' }).click()]);
        // In the guest's language alone; the other is a link away.
        await expect(terms).toHaveURL(/\/terms\.html#en$/);
        await expect(terms.getByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeVisible();
        await expect(terms.getByRole('heading', { level: 1, name: '利用規約' })).toBeHidden();
        await expect(terms.getByRole('link', { name: /@/ }).first()).toHaveAttribute('href', /^mailto:[^%\s]+@[^%\s]+$/);
        await checkA11y(terms, '/terms.html');
        await terms.getByRole('link', { name: '日本語' }).click();
        await expect(terms.getByRole('heading', { level: 1, name: '利用規約' })).toBeVisible();
        await expect(terms.getByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeHidden();
        await checkA11y(terms, '/terms.html#ja');
        await terms.close();

        // A Japanese visitor's sign-up links to the Japanese terms.
        await page.goto('/');
        await page.getByRole('radio', { name: '日本語' }).check();
        await page.goto('/signup');
        await expect(page.getByRole('link', { name: '利用規約' })).toHaveAttribute('href', '/terms.html#ja');
      });

      test('sign-up needs the terms, signs in by itself, and the mailed link verifies the address', async ({ page, request }) => {
        const missing = watchMissingTexts(page);
        const title = uniqueName('new');
        const email = `${title}@example.com`;
        account.title = title;
        account.email = email;
        await page.goto('/signup');
        await expect(page.getByRole('heading', { level: 1, name: 'Sign up' })).toBeVisible();
        await expect(page.getByRole('link', { name: 'Terms and Conditions' })).toHaveAttribute('target', '_blank');
        await checkA11y(page, '/signup');
        // The password's rules are there before the guest types, tied to the field.
        await expect(page.getByLabel('Password')).toHaveAccessibleDescription(
          'At least 8 characters. Not a commonly used password, and not your name or address.',
        );
        await page.getByLabel('Username').fill(title);
        await page.getByLabel('E-mail').fill(email);
        await page.getByLabel('Password').fill(account.password);
        await page.getByRole('button', { name: 'Sign up' }).click();
        await expectFieldError(page.getByLabel('I agree to the Terms and Conditions'), 'Please agree to the Terms and Conditions');
        await expect(page.getByLabel('Username')).toHaveValue(title);
        await checkA11y(page, '/signup with the terms alert');
        await expect(page).toHaveURL(/\/signup$/);

        await page.getByLabel('I agree to the Terms and Conditions').check();
        await page.getByRole('button', { name: 'Sign up' }).click();
        await expect(page).toHaveURL(/\/reservations$/);

        const mail = await lastMailTo(request, email);
        const link = linkIn(mail.text);
        expect(link).toMatch(/^\/guest\/verifyEmail\//);
        // The link opens in a tab of its own, as from a mail; the list's tab learns it at once.
        const unverified = page.getByText(/please first verify your account/);
        await expect(unverified).toBeVisible();
        const mailTab = await page.context().newPage();
        await mailTab.goto(link);
        await expect(mailTab.getByText('Your e-mail address is verified.')).toBeVisible();
        await expect(unverified).toHaveCount(0);
        await settled(mailTab);
        await checkA11y(mailTab, '/guest/verifyEmail');
        // A tab no script opened does not close: the page offers the way back instead.
        await mailTab.getByRole('button', { name: 'OK' }).click();
        await expect(mailTab.getByText(/This tab stays open/)).toBeVisible();
        await checkA11y(mailTab, '/guest/verifyEmail, still open');
        await mailTab.getByRole('link', { name: 'Go to my jails' }).click();
        await expect(mailTab).toHaveURL(/\/reservations$/);
        await mailTab.close();
        // A used link no longer verifies.
        await page.goto(link);
        await expectBanner(page, 'This link is invalid or has expired.');
        await expect(page.getByText('Your e-mail address is verified.')).toHaveCount(0);
        expect(missing).toEqual([]);
      });

      test('sign-in with a wrong password shows the error, then signs in by username or e-mail', async ({ page }) => {
        const missing = watchMissingTexts(page);
        const guest = account;
        await page.goto('/signin');
        await expect(page.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/signup');
        await expect(page.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/guest/resetPasswordEmail');
        await checkA11y(page, '/signin');
        await page.getByLabel('Username or e-mail').fill(guest.title);
        await page.getByLabel('Password').fill('not the password');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await expectFieldError(page.getByLabel('Password'), 'The username or password is wrong.');
        await expect(page.getByLabel('Username or e-mail')).toHaveValue(guest.title);
        await expect(page).toHaveURL(/\/signin$/);
        await page.getByLabel('Password').fill(guest.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await expect(page).toHaveURL(/\/reservations$/);

        // Logout from the account menu: to sign in again (a returning guest), and the session is gone.
        await page.goto('/guest/show');
        await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
        await expect(page.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', /^mailto:/);
        await expect(page.getByText(/^Version /)).toBeVisible();
        await settled(page);
        await checkA11y(page, '/guest/show');
        await page.getByRole('button', { name: 'Log out' }).click();
        await expect(page).toHaveURL(/\/signin$/);
        await page.goto('/guest/show');
        await expect(page).toHaveURL(/\/signin$/);

        // Signing in by the e-mail address works too.
        await page.goto('/signin');
        await page.getByLabel('Username or e-mail').fill(guest.email.toUpperCase());
        await page.getByLabel('Password').fill(guest.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await expect(page).toHaveURL(/\/reservations$/);
        expect(missing).toEqual([]);
      });

      test('password reset: the mailed link, the mismatch rule, then the new password signs in', async ({ page, request }) => {
        const missing = watchMissingTexts(page);
        const guest = { ...account };
        await page.goto('/guest/resetPasswordEmail');
        await checkA11y(page, '/guest/resetPasswordEmail');
        // An empty e-mail sends nothing, and says why beside it.
        await page.getByRole('button', { name: 'Send the link' }).click();
        await expectFieldError(page.getByLabel('E-mail'), 'The e-mail address is not valid.');
        await expect(page.getByText(/a link is on its way/)).toHaveCount(0);
        await page.getByLabel('E-mail').fill(guest.email);
        await page.getByRole('button', { name: 'Send the link' }).click();
        await expect(page.getByText(/a link is on its way/)).toBeVisible();

        const link = linkIn((await lastMailTo(request, guest.email)).text);
        expect(link).toMatch(/^\/guest\/updatePassword\//);
        await page.goto(link);
        await checkA11y(page, '/guest/updatePassword');
        await page.getByLabel('New password', { exact: true }).fill('the new password');
        await page.getByLabel('Confirm the new password').fill('another password');
        await page.getByRole('button', { name: 'Save the password' }).click();
        await expectFieldError(page.getByLabel('Confirm the new password'), "Password doesn't match");
        await checkA11y(page, '/guest/updatePassword with the mismatch alert');
        await page.getByLabel('Confirm the new password').fill('the new password');
        await page.getByRole('button', { name: 'Save the password' }).click();
        await expect(page.getByText('Your password was changed. Please sign in.')).toBeVisible();

        const old = await call(request, '/guest/authenticate', { guest: { title: guest.title, password: guest.password } });
        expect(old.api.status).toBe('failed');
        const fresh = await call(request, '/guest/authenticate', { guest: { title: guest.title, password: 'the new password' } });
        expect(fresh.api.status).toBe('success');
        account.password = 'the new password';
        expect(missing).toEqual([]);
      });

      test('"Edit password": the address filled in, the navigation kept, then signed out and back in with the new password', async ({ page, request }) => {
        const missing = watchMissingTexts(page);
        await signInByApi(page, request, account);
        await page.goto('/guest/edit');
        await page.getByRole('link', { name: 'Edit: Password' }).click();
        await expect(page.getByRole('heading', { level: 1, name: 'Change your password' })).toBeVisible();
        await expect(page.getByLabel('E-mail')).toHaveValue(account.email);
        await expect(page.getByRole('navigation').first()).toBeVisible();
        await expect(page.getByRole('link', { name: 'Back to your account' })).toHaveAttribute('href', '/guest/edit');
        await checkA11y(page, '"Edit password"');
        await page.getByRole('button', { name: 'Send the link' }).click();
        await expect(page.getByText(/a link is on its way/)).toBeVisible();

        // The reset ends every session, this device's too: "Sign in" reaches the sign-in page, and the jails follow.
        await page.goto(linkIn((await lastMailTo(request, account.email)).text));
        await page.getByLabel('New password', { exact: true }).fill('a second new password');
        await page.getByLabel('Confirm the new password').fill('a second new password');
        await page.getByRole('button', { name: 'Save the password' }).click();
        await expect(page.getByText('Your password was changed. Please sign in.')).toBeVisible();
        account.password = 'a second new password';
        await page.getByRole('link', { name: 'Sign in' }).click();
        await expect(page).toHaveURL(/\/signin$/);
        await page.getByLabel('Username or e-mail').fill(account.title);
        await page.getByLabel('Password').fill(account.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await expect(page).toHaveURL(/\/reservations$/);
        await settled(page);
        await expect(page.getByRole('alertdialog')).toHaveCount(0);
        await expect(page.getByText('You are signed out. Please sign in again.')).toHaveCount(0);
        expect(missing).toEqual([]);
      });

      test('account info: edit the username and the e-mail; unchanged values are not saved', async ({ page, request }) => {
        const missing = watchMissingTexts(page);
        const guest = { ...account };
        await signInByApi(page, request, account);
        await page.goto('/guest/edit');
        await expect(page.getByRole('heading', { level: 1, name: 'Account info' })).toBeVisible();
        await expect(page.getByTestId('guest-title')).toHaveText(guest.title);
        await expect(page.getByTestId('guest-password')).toHaveText('••••••••');
        await settled(page);
        await checkA11y(page, '/guest/edit');

        // Unchanged: straight back, nothing saved.
        // The page's heading, not only its address: the address changes before the page it names is drawn.
        await page.getByRole('link', { name: 'Edit: Username' }).click();
        await expect(page).toHaveURL(/\/guest\/editTitle$/);
        await expect(page.getByRole('heading', { level: 1, name: 'Change the username' })).toBeVisible();
        await expect(page.getByLabel('Username', { exact: true })).toHaveValue(guest.title);
        await checkA11y(page, '/guest/editTitle');
        await page.getByRole('button', { name: 'Save' }).click();
        await expect(page).toHaveURL(/\/guest\/edit$/);

        const title = uniqueName('renamed');
        await page.getByRole('link', { name: 'Edit: Username' }).click();
        await expect(page.getByRole('heading', { level: 1, name: 'Change the username' })).toBeVisible();
        await page.getByLabel('Username', { exact: true }).fill(title);
        await page.getByRole('button', { name: 'Save' }).click();
        await expect(page).toHaveURL(/\/guest\/edited$/);
        await checkA11y(page, '/guest/edited');
        await page.getByRole('link', { name: 'Check' }).click();
        await expect(page).toHaveURL(/\/guest\/edit$/);
        await expect(page.getByTestId('guest-title')).toHaveText(title);
        account.title = title;

        // A new e-mail address takes the current password: a wrong one is refused in the app's words.
        const email = `${title}@example.org`;
        await page.getByRole('link', { name: 'Edit: E-mail' }).click();
        await expect(page.getByRole('heading', { level: 1, name: 'Change the e-mail address' })).toBeVisible();
        await checkA11y(page, '/guest/editEmail');
        await page.getByLabel('E-mail', { exact: true }).fill(email);
        await page.getByLabel('Current password').fill('not my password');
        await page.getByRole('button', { name: 'Save' }).click();
        await expectFieldError(page.getByLabel('Current password'), 'The current password is wrong. Enter the password of your account.');
        await expect(page.getByLabel('E-mail')).toHaveValue(email);
        await expect(page).toHaveURL(/\/guest\/editEmail$/);
        await page.getByLabel('Current password').fill(account.password);
        await page.getByRole('button', { name: 'Save' }).click();
        await expect(page).toHaveURL(/\/guest\/edited$/);
        await expect(page.getByText(`We mailed a link to ${email}: your address changes when you open it.`)).toBeVisible();
        await page.getByRole('link', { name: 'Check' }).click();
        // The address waits for its link; until then the account keeps the old one.
        await expect(page.getByTestId('guest-email')).toHaveText(account.email);
        await expect(page.getByTestId('pending-email')).toContainText(`Waiting for you to confirm ${email}.`);
        await checkA11y(page, '/guest/edit with an address waiting');
        await page.getByRole('button', { name: 'Send the link again' }).click();
        await expect(page.getByTestId('pending-email').getByText('email sent.')).toBeVisible();
        const confirmLink = linkIn((await lastMailTo(request, email)).text);
        expect(confirmLink).toMatch(/^\/guest\/verifyEmail\//);
        await page.goto(confirmLink);
        await expect(page.getByText('Your e-mail address is verified.')).toBeVisible();
        await page.goto('/guest/edit');
        await expect(page.getByTestId('guest-email')).toHaveText(email);
        await expect(page.getByTestId('pending-email')).toHaveCount(0);
        const oldEmail = account.email;
        account.email = email;
        // The old address is told, with the way back.
        const notice = await lastMailTo(request, oldEmail);
        expect(notice.subject).toBe('Warden: your e-mail address was changed');
        expect(notice.text).toContain(email);
        expect(linkIn(notice.text)).toMatch(/^\/guest\/takeBack\//);
        expect(missing).toEqual([]);
      });

      test('phone: request a code, a wrong code is refused, the SMS code registers the number', async ({ page, context, request }) => {
        const missing = watchMissingTexts(page);
        // Codes are limited per client address too: this test's page has an address of its own.
        await freshAddress(context);
        await signInByApi(page, request, account);
        await page.goto('/guest/editPhone');
        await expect(page.getByRole('heading', { level: 1, name: 'Phone number' })).toBeVisible();
        await settled(page);
        await checkA11y(page, '/guest/editPhone step 1');
        const digits = `090${String(Date.now()).slice(-8)}`;
        const typed = `${digits.slice(0, 3)}-${digits.slice(3, 7)}-${digits.slice(7)}`;
        const mistyped = `080${digits.slice(3)}`;
        await page.getByLabel('Phone number').fill(mistyped);
        await page.getByRole('button', { name: 'Send a code' }).click();
        const codeInput = page.getByLabel('Code from the SMS');
        await expect(codeInput).toBeVisible();
        await expect(codeInput).toHaveAttribute('inputmode', 'numeric');
        await checkA11y(page, '/guest/editPhone step 2');

        // Back clears the code and returns to step 1, where the number can be put right.
        await codeInput.fill('12');
        await page.getByRole('button', { name: 'Back' }).click();
        await expect(page.getByLabel('Phone number')).toHaveValue(mistyped);
        // The same number again so soon is refused beside it (another code waits a minute, tests/guest-paths.spec.ts).
        await page.getByRole('button', { name: 'Send a code' }).click();
        await expectFieldError(page.getByLabel('Phone number'), 'A code was just sent to this number. Please wait a minute before asking for another.');
        await page.getByLabel('Phone number').fill(typed);
        await page.getByRole('button', { name: 'Send a code' }).click();
        await expect(page.getByLabel('Code from the SMS')).toHaveValue('');

        const code = codeIn((await lastMessageTo(request, digits, 'sms')).text);
        const wrong = code === '000000' ? '111111' : '000000';
        await page.getByLabel('Code from the SMS').fill(wrong);
        await page.getByRole('button', { name: 'Register' }).click();
        await expectFieldError(page.getByLabel('Code from the SMS'), 'Your code is wrong');
        await page.getByLabel('Code from the SMS').fill(`${code}x`);
        await expect(page.getByLabel('Code from the SMS')).toHaveValue(code);
        await page.getByRole('button', { name: 'Register' }).click();
        await expect(page).toHaveURL(/\/guest\/edited$/);
        await page.getByRole('link', { name: 'Check' }).click();
        await expect(page.getByTestId('guest-phone')).toHaveText(digits);

        // The same number again asks for no code.
        await page.goto('/guest/editPhone');
        await expect(page.getByLabel('Phone number')).toHaveValue(digits);
        await page.getByRole('button', { name: 'Send a code' }).click();
        await expect(page.getByText('This is already your number.')).toBeVisible();
        await expect(page.getByLabel('Code from the SMS')).toHaveCount(0);
        expect(missing).toEqual([]);
      });
    });
}

/** A facilitator's sign-in token for the guest, issued by the admin command to a new warden. */
async function facilitatorToken(request: APIRequestContext, guestId: number): Promise<string> {
  const warden = await createWarden(request);
  const issued = await request.post('/dev/admin', { data: { args: ['facilitator-token', '--warden', warden.email, '--guest', String(guestId)] } });
  expect(issued.ok(), 'POST /dev/admin facilitator-token').toBe(true);
  return ((await issued.json()) as { lines: string[] }).lines[1] ?? '';
}

test.describe('account menu at phone 360x640', () => {
  test.use({ viewport: VIEWPORTS[0].viewport, locale: 'en-US', serviceWorkers: 'block' });

  test('says when a facilitator last signed in as the guest', async ({ page, request }) => {
    const missing = watchMissingTexts(page);
    const guest = await createGuest(request);
    await signInPage(page, guest);
    await page.goto('/guest/show');
    await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
    await expect(page.getByTestId('facilitator-signed-in')).toHaveCount(0);

    const token = await facilitatorToken(request, guest.id);
    const answer = await call(request, '/guest/authenticateAsLimFacilitator', { guest: { id: guest.id }, facilitator: { token } });
    expect(answer.api.status).toBe('success');

    await page.reload();
    await expect(page.getByTestId('facilitator-signed-in')).toHaveText(/^A facilitator last signed in to your account on .+\.$/);
    await checkA11y(page, '/guest/show with a facilitator sign-in');
    expect(missing).toEqual([]);
  });

  test("the language chosen in the account menu is the account's too, which the Warden, mail and reminders use", async ({ page, request }) => {
    const missing = watchMissingTexts(page);
    const guest = await createGuest(request);
    // Read through a session of its own: the facilitator's sign-in below ends the page's.
    const reader = (await call(request, '/guest/authenticate', { guest: { title: guest.title, password: guest.password } })).guest as {
      id: number;
      token: string;
    };
    const accountLanguage = async () => {
      const answer = await call(request, '/guest/read', { guest: { id: reader.id, token: reader.token } });
      return (answer.guest as { language: string }).language;
    };
    await signInPage(page, guest);
    await page.goto('/guest/show');
    const note = { en: accountTexts.en.show_language_note, ja: accountTexts.ja.show_language_note };
    await expect(page.getByText(note.en)).toBeVisible();

    await page.getByRole('group', { name: 'Language', exact: true }).getByRole('radio', { name: '日本語' }).check();
    await expect(page.getByRole('heading', { level: 1, name: 'アカウント' })).toBeVisible();
    await expect(page.getByText(note.ja)).toBeVisible();
    await expect.poll(accountLanguage, { message: "the account's language" }).toBe('ja');
    await checkA11y(page, '/guest/show in Japanese');

    await page.getByRole('group', { name: '言語', exact: true }).getByRole('radio', { name: 'English' }).check();
    await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
    await expect.poll(accountLanguage, { message: "the account's language" }).toBe('en');

    // A facilitator signed in as the guest (on this page now) switches the page alone: the account keeps its language.
    await page.goto(`/guest/loginAsLimFacilitator/${await facilitatorToken(request, guest.id)}/${guest.id}`);
    await expect(page).not.toHaveURL(/loginAsLimFacilitator/);
    await page.goto('/guest/show');
    await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
    await expect(page.getByText(note.en)).toHaveCount(0);
    const updates: string[] = [];
    page.on('request', (sent) => {
      if (new URL(sent.url()).pathname === '/api/guest/update') updates.push(sent.url());
    });
    await page.getByRole('group', { name: 'Language', exact: true }).getByRole('radio', { name: '日本語' }).check();
    await expect(page.getByRole('heading', { level: 1, name: 'アカウント' })).toBeVisible();
    await settled(page);
    expect(updates).toEqual([]);
    expect(await accountLanguage()).toBe('en');
    expect(missing).toEqual([]);
  });

  test('lists the signed-in devices on Account info, signs out another one, then everywhere', async ({ page, request }) => {
    const missing = watchMissingTexts(page);
    const guest = await createGuest(request);
    const signInFrom = async (userAgent: string) => {
      const response = await request.post('/api/guest/authenticate', {
        headers: { 'x-forwarded-for': uniqueAddress(), 'user-agent': userAgent },
        data: { api: { language: 'en' }, guest: { title: guest.title, password: guest.password } },
      });
      return ((await response.json()) as { guest: { id: number; token: string } }).guest;
    };
    const phone = await signInFrom('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36');
    const laptop = await signInFrom('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0');
    await signInPage(page, laptop);
    await page.goto('/guest/edit');
    const devices = page.getByRole('region', { name: 'Signed-in devices' }).getByTestId('signed-in-device');
    await expect(devices).toHaveCount(3);
    await expect(devices.filter({ hasText: 'Firefox on Windows (this device)' })).toHaveCount(1);
    await checkA11y(page, '/guest/edit with signed-in devices');

    await page.getByRole('button', { name: 'Sign out Chrome on Android' }).click();
    await expect(devices).toHaveCount(2);
    expect((await call(request, '/guest/read', { guest: phone })).api.errorMessage).toBe('You are signed out. Please sign in again.');

    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(page).toHaveURL(/\/signin$/);
    expect((await call(request, '/guest/read', { guest: { id: guest.id, token: guest.token } })).api.errorMessage).toBe(
      'You are signed out. Please sign in again.',
    );
    expect(missing).toEqual([]);
  });
});

test.describe('account flows in Japanese at phone 360x640', () => {
  test.use({ viewport: VIEWPORTS[0].viewport, locale: 'ja-JP', serviceWorkers: 'block' });

  test("signing in on a Japanese page to an English account turns the page to English, the account's language, and the device keeps it", async ({
    page,
    request,
  }) => {
    const missing = watchMissingTexts(page);
    const guest = await createGuest(request, { language: 'en' });
    await page.goto('/signin');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await page.getByLabel('ユーザー名またはメールアドレス').fill(guest.title);
    await page.getByLabel('パスワード', { exact: true }).fill(guest.password);
    await page.getByRole('button', { name: 'ログイン', exact: true }).click();
    await expect(page).toHaveURL(/\/reservations$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('navigation').getByRole('link', { name: 'List' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('navigation').getByRole('link', { name: 'List' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    expect(missing).toEqual([]);
  });

  test('the verification link in a tab of its own tells the list, and offers the way back; "Edit password" keeps the frame', async ({ page, request }) => {
    const missing = watchMissingTexts(page);
    const guest = await createGuest(request, { language: 'ja' });
    await signInPage(page, guest);
    await page.goto('/reservations');
    const unverified = page.getByText(/メールアドレスの確認を済ませてください/);
    await expect(unverified).toBeVisible();

    const mailTab = await page.context().newPage();
    await mailTab.goto(linkIn((await lastMailTo(request, guest.email)).text));
    await expect(mailTab.getByText('メールアドレスの確認が完了しました。')).toBeVisible();
    await expect(unverified).toHaveCount(0);
    await mailTab.getByRole('button', { name: 'OK' }).click();
    await expect(mailTab.getByText(/このタブは開いたままです/)).toBeVisible();
    await checkA11y(mailTab, '/guest/verifyEmail in Japanese, still open');
    await mailTab.getByRole('link', { name: 'ジェイルの一覧へ' }).click();
    await expect(mailTab).toHaveURL(/\/reservations$/);
    await mailTab.close();

    await page.goto('/guest/edit');
    // Each row's button stays whole in the card, however long the address (Japanese text breaks only between phrases).
    for (const row of ['ユーザー名', 'メールアドレス', '電話番号', 'パスワード']) {
      await expect(page.getByRole('link', { name: `編集: ${row}` })).toBeInViewport({ ratio: 1 });
    }
    await page.getByRole('link', { name: '編集: パスワード' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'パスワードの変更' })).toBeVisible();
    await expect(page.getByLabel('メールアドレス')).toHaveValue(guest.email);
    await expect(page.getByRole('link', { name: 'アカウントに戻る' })).toHaveAttribute('href', '/guest/edit');
    await checkA11y(page, '"Edit password" in Japanese');

    // The reset signs this device out too: "ログイン" reaches the sign-in page, and the jails follow with no error.
    await page.getByRole('button', { name: 'リンクを送る' }).click();
    await expect(page.getByText(/リンクをお送りしました/)).toBeVisible();
    await page.goto(linkIn((await lastMailTo(request, guest.email)).text));
    await page.getByLabel('新しいパスワード', { exact: true }).fill('a new password');
    await page.getByLabel('新しいパスワード（確認）').fill('a new password');
    await page.getByRole('button', { name: 'パスワードを保存' }).click();
    await expect(page.getByText('パスワードを変更しました。ログインしてください。')).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'ログイン', exact: true }).click();
    await expect(page).toHaveURL(/\/signin$/);
    await page.getByLabel('ユーザー名またはメールアドレス').fill(guest.title);
    await page.getByLabel('パスワード', { exact: true }).fill('a new password');
    await page.getByRole('button', { name: 'ログイン', exact: true }).click();
    await expect(page).toHaveURL(/\/reservations$/);
    await settled(page);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await expect(page.getByText('ログインが切れました。もう一度ログインしてください。')).toHaveCount(0);
    expect(missing).toEqual([]);
  });

  test('a new address waits for its link and can be cancelled; the way back mailed to the former address takes the account back', async ({ page, request }) => {
    const missing = watchMissingTexts(page);
    const guest = await createGuest(request, { language: 'ja' });
    expect(
      (
        await call(request, '/guest/verifyEmail', {
          guest: {
            token: linkIn((await lastMailTo(request, guest.email)).text)
              .split('/')
              .pop(),
          },
        })
      ).api.status,
    ).toBe('success');
    const askFor = async (email: string) =>
      expect(
        (await call(request, '/guest/update', { guest: { id: guest.id, token: guest.token, email, currentPassword: guest.password } }, 'ja')).api.status,
      ).toBe('success');

    const waiting = `waiting-${guest.email}`;
    await askFor(waiting);
    await signInPage(page, guest);
    await page.goto('/guest/edit');
    await expect(page.getByTestId('pending-email')).toContainText(`${waiting} の確認待ちです。`);
    await checkA11y(page, '/guest/edit with an address waiting, in Japanese');
    await page.getByRole('button', { name: '変更を取り消す' }).click();
    await expect(page.getByTestId('pending-email')).toHaveCount(0);
    await expect(page.getByTestId('guest-email')).toHaveText(guest.email);

    // Someone with the password moves the address and verifies it; the former address takes the account back.
    const intruder = `intruder-${guest.email}`;
    await askFor(intruder);
    const confirmToken = linkIn((await lastMailTo(request, intruder)).text)
      .split('/')
      .pop();
    expect((await call(request, '/guest/verifyEmail', { guest: { token: confirmToken } })).api.status).toBe('success');
    const notice = await lastMailTo(request, guest.email);
    expect(notice.subject).toBe('Warden: メールアドレスが変更されました');
    await page.goto(linkIn(notice.text));
    await expect(page.getByRole('heading', { level: 1, name: 'アカウントを取り戻す' })).toBeVisible();
    await checkA11y(page, '/guest/takeBack in Japanese');
    await page.getByLabel('新しいパスワード', { exact: true }).fill('my own account again');
    await page.getByLabel('新しいパスワード（確認）').fill('my own account again');
    await page.getByRole('button', { name: 'アカウントを取り戻す' }).click();
    await expect(page.getByText(/^アカウントを取り戻しました。/)).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'ログイン', exact: true }).click();
    await page.getByLabel('ユーザー名またはメールアドレス').fill(guest.email);
    await page.getByLabel('パスワード', { exact: true }).fill('my own account again');
    await page.getByRole('button', { name: 'ログイン', exact: true }).click();
    await expect(page).toHaveURL(/\/reservations$/);
    expect(missing).toEqual([]);
  });
});

for (const { name, viewport, locale, language, words } of [
  {
    name: 'desktop 1280x800 in English',
    viewport: VIEWPORTS[1].viewport,
    locale: 'en-US',
    language: 'en',
    words: { done: 'Your e-mail address is verified.', unverified: /please first verify your account/ },
  },
  {
    name: 'phone 360x640 in Japanese',
    viewport: VIEWPORTS[0].viewport,
    locale: 'ja-JP',
    language: 'ja',
    words: { done: 'メールアドレスの確認が完了しました。', unverified: /メールアドレスの確認を済ませてください/ },
  },
] as const) {
  test.describe(`verification in a window the app opened, at ${name}`, () => {
    test.use({ viewport, locale, serviceWorkers: 'block' });

    test('OK closes the window, and the list has learnt it', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      const guest = await createGuest(request, { language });
      await signInPage(page, guest);
      await page.goto('/reservations');
      const unverified = page.getByText(words.unverified);
      await expect(unverified).toBeVisible();
      // Opened by script, as a mail client's web view or a "verify" button would: the browser lets the page close it.
      const link = linkIn((await lastMailTo(request, guest.email)).text);
      const [popup] = await Promise.all([page.waitForEvent('popup'), page.evaluate((url) => void window.open(url, '_blank', 'popup'), link)]);
      await expect(popup.getByText(words.done)).toBeVisible();
      await expect(unverified).toHaveCount(0);
      await checkA11y(popup, `/guest/verifyEmail in a popup (${language})`);
      const closed = popup.waitForEvent('close');
      // The click closes the page under Playwright's feet, which may then report the page gone: expected once it is closed.
      await popup
        .getByRole('button', { name: 'OK' })
        .click({ noWaitAfter: true })
        .catch((error: unknown) => {
          if (!popup.isClosed()) throw error;
        });
      await closed;
      expect(popup.isClosed()).toBe(true);
      expect(missing).toEqual([]);
    });
  });
}

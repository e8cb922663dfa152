/**
 * Deleting the account from "Your data" (docs/privacy.md, Deletion) against
 * the built client and the real server, at a phone and a desktop size, in
 * English and Japanese, each screen scanned with axe in light and dark: sign up, the account
 * menu's "Your data", a wrong password refused beside its field before any
 * confirmation, with nothing lost, the right one after the confirmation, the page after it, signing in again refused,
 * signing up again with the address accepted, the forum naming the deleted
 * guest's post "Former member", and a facilitator's session told it cannot.
 */
import { expect, test, type Page } from '@playwright/test';
import { call, checkA11yLightAndDark, createGuest, expectFieldError, freshAddress, signedIn, uniqueName, VIEWPORTS, watchMissingTexts } from './helpers.ts';

const WORDS = {
  en: {
    signUpHeading: 'Sign up',
    username: 'Username',
    email: 'E-mail',
    password: 'Password',
    terms: 'I agree to the Terms and Conditions',
    signUp: 'Sign up',
    signInHeading: 'Sign in',
    usernameOrEmail: 'Username or e-mail',
    signIn: 'Sign in',
    signInFailed: 'The username or password is wrong.',
    account: 'Account',
    yourData: 'Your data',
    privacy: 'Privacy',
    deleteHeading: 'Delete your account',
    yourPassword: 'Your password',
    deleteSubmit: 'Delete my account',
    confirmTitle: 'Delete your account?',
    confirmDelete: 'Delete for good',
    confirmKeep: 'Keep my account',
    wrongPassword: 'The current password is wrong. Enter the password of your account.',
    deleted: 'Your account is deleted',
    intro: 'Back to the introduction',
    forum: 'Forum',
    yourMessage: 'Your message',
    post: 'Post',
    formerMember: 'Former member',
    logOut: 'Log out',
    facilitator: 'You are signed in as a facilitator. Only the guest can delete the account.',
  },
  ja: {
    signUpHeading: '新規登録',
    username: 'ユーザー名',
    email: 'メールアドレス',
    password: 'パスワード',
    terms: '利用規約に同意します',
    signUp: '登録する',
    signInHeading: 'ログイン',
    usernameOrEmail: 'ユーザー名またはメールアドレス',
    signIn: 'ログイン',
    signInFailed: 'ユーザー名またはパスワードが違います。',
    account: 'アカウント',
    yourData: 'あなたのデータ',
    privacy: 'プライバシー',
    deleteHeading: 'アカウントの削除',
    yourPassword: 'パスワード',
    deleteSubmit: 'アカウントを削除する',
    confirmTitle: 'アカウントを削除しますか？',
    confirmDelete: '削除する',
    confirmKeep: '削除しない',
    wrongPassword: '現在のパスワードが違います。アカウントのパスワードを入力してください。',
    deleted: 'アカウントを削除しました',
    intro: 'はじめの画面へ',
    forum: 'フォーラム',
    yourMessage: 'あなたのメッセージ',
    post: '投稿する',
    formerMember: '退会したメンバー',
    logOut: 'ログアウト',
    facilitator: 'ファシリテーターとしてログインしています。アカウントを削除できるのはご本人だけです。',
  },
} as const;

/** Axe in the light scheme and the dark one (the design's two palettes). */
async function settled(page: Page) {
  await expect(page.getByTestId('loading-overlay')).toHaveCount(0);
}

async function signUpThroughScreen(page: Page, words: (typeof WORDS)[keyof typeof WORDS], form: { title: string; email: string; password: string }) {
  await page.goto('/signup');
  await expect(page.getByRole('heading', { level: 1, name: words.signUpHeading })).toBeVisible();
  await page.getByLabel(words.username, { exact: true }).fill(form.title);
  await page.getByLabel(words.email, { exact: true }).fill(form.email);
  await page.getByLabel(words.password, { exact: true }).fill(form.password);
  await page.getByLabel(words.terms).check();
  await page.getByRole('button', { name: words.signUp, exact: true }).click();
  await expect(page).toHaveURL(/\/reservations$/);
}

for (const language of ['en', 'ja'] as const) {
  const words = WORDS[language];
  for (const { name, viewport } of VIEWPORTS) {
    test.describe(`deleting the account at ${name} in ${language}`, () => {
      test.use({ viewport, locale: language === 'ja' ? 'ja-JP' : 'en-US', serviceWorkers: 'block' });

      test('from the account menu: a wrong password loses nothing, the right one deletes, and the address can sign up again', async ({
        page,
        context,
        request,
      }) => {
        const missing = watchMissingTexts(page);
        await freshAddress(context);
        const form = { title: uniqueName('leaving'), email: `${uniqueName('leaving')}@example.com`, password: 'a long password' };
        await signUpThroughScreen(page, words, form);
        // A forum post, which stays under "Former member".
        await page.goto('/userForum');
        const post = `A last word, ${uniqueName('post')}`;
        await page.getByLabel(words.yourMessage).fill(post);
        await page.getByRole('button', { name: words.post, exact: true }).click();
        await expect(page.getByText(post)).toBeVisible();

        // "Your data" from the account menu.
        await page.goto('/guest/show');
        await expect(page.getByRole('heading', { level: 1, name: words.account })).toBeVisible();
        await page.getByRole('link', { name: words.yourData }).click();
        await expect(page).toHaveURL(/\/guest\/data$/);
        await expect(page.getByRole('heading', { level: 1, name: words.yourData })).toBeVisible();
        await expect(page.getByRole('link', { name: words.privacy })).toHaveAttribute('href', `/privacy.html#${language}`);
        const section = page.getByRole('region', { name: words.deleteHeading });
        await expect(section).toBeVisible();
        await settled(page);
        await checkA11yLightAndDark(page, `/guest/data (${language})`);

        // A wrong password is said beside the field before any confirmation; nothing is lost.
        const sheet = page.getByRole('dialog', { name: words.confirmTitle });
        await section.getByLabel(words.yourPassword).fill('not the password');
        await section.getByRole('button', { name: words.deleteSubmit }).click();
        await expectFieldError(section.getByLabel(words.yourPassword), words.wrongPassword);
        await expect(sheet).toBeHidden();
        await checkA11yLightAndDark(page, `/guest/data, a wrong password (${language})`);
        const stillThere = await call(request, '/guest/authenticate', { guest: { title: form.title, password: form.password } });
        expect(stillThere.api).toEqual({ status: 'success' });

        // The right password: the confirmation; Keep it keeps the account; then it deletes the account and signs the page out.
        await section.getByLabel(words.yourPassword).fill(form.password);
        await section.getByRole('button', { name: words.deleteSubmit }).click();
        await expect(sheet).toBeVisible();
        await checkA11yLightAndDark(page, `/guest/data, the confirmation (${language})`);
        await sheet.getByRole('button', { name: words.confirmKeep }).click();
        await expect(sheet).toBeHidden();
        await section.getByRole('button', { name: words.deleteSubmit }).click();
        await sheet.getByRole('button', { name: words.confirmDelete }).click();
        await expect(page).toHaveURL(/\/guest\/deleted$/);
        await expect(page.getByRole('heading', { level: 1, name: words.deleted })).toBeVisible();
        await settled(page);
        await checkA11yLightAndDark(page, `/guest/deleted (${language})`);
        const stored = await page.evaluate(
          () =>
            new Promise<unknown>((resolve) => {
              const open = indexedDB.open('Warden_PWA', 4);
              open.onsuccess = () => {
                const get = open.result.transaction('auth').objectStore('auth').get('auth');
                get.onsuccess = () => resolve(get.result ?? null);
              };
            }),
        );
        expect(stored).toBeNull();
        await page.goto('/guest/data');
        await expect(page).toHaveURL(/\/$/);
        await page.goto('/guest/deleted');
        await page.getByRole('link', { name: words.intro }).click();
        await expect(page).toHaveURL(/\/$/);

        // Signing in again is refused, by the name and by the address.
        await page.goto('/signin');
        await page.getByLabel(words.usernameOrEmail).fill(form.email);
        await page.getByLabel(words.password, { exact: true }).fill(form.password);
        await page.getByRole('button', { name: words.signIn, exact: true }).click();
        await expectFieldError(page.getByLabel(words.password, { exact: true }), words.signInFailed);
        await expect(page).toHaveURL(/\/signin$/);

        // Another guest sees the post without its name.
        const reader = await createGuest(request, { language });
        await signedIn(page, reader, '/userForum');
        await expect(page.getByRole('heading', { level: 1, name: words.forum })).toBeVisible();
        const message = page.getByRole('listitem').filter({ hasText: post });
        await expect(message).toContainText(words.formerMember);
        await expect(message).not.toContainText(form.title);
        await settled(page);
        await checkA11yLightAndDark(page, `/userForum with a former member's post (${language})`);

        // The address signs up again, as a new account.
        await page.goto('/guest/show');
        await page.getByRole('button', { name: words.logOut }).click();
        await expect(page).toHaveURL(/\/signin$/);
        await freshAddress(context);
        await signUpThroughScreen(page, words, { ...form, title: uniqueName('back') });
        expect(missing).toEqual([]);
      });

      test('a facilitator’s session is told that only the guest can delete the account', async ({ page, request }) => {
        const missing = watchMissingTexts(page);
        const guest = await createGuest(request, { language });
        const wardenTitle = uniqueName('warden');
        const created = await request.post('/dev/admin', {
          data: { args: ['create-warden', '--title', wardenTitle, '--email', `${wardenTitle}@example.com`] },
        });
        expect(created.ok()).toBe(true);
        const issued = await request.post('/dev/admin', {
          data: { args: ['facilitator-token', '--warden', `${wardenTitle}@example.com`, '--guest', String(guest.id)] },
        });
        const { lines } = (await issued.json()) as { lines: string[] };
        await page.goto(`/guest/loginAsLimFacilitator/${lines[1]}/${guest.id}`);
        await expect(page).not.toHaveURL(/loginAsLimFacilitator/);
        await page.goto('/guest/data');
        const section = page.getByRole('region', { name: words.deleteHeading });
        await expect(section.getByText(words.facilitator)).toBeVisible();
        await expect(section.getByRole('button', { name: words.deleteSubmit })).toHaveCount(0);
        await expect(section.getByLabel(words.yourPassword)).toHaveCount(0);
        await settled(page);
        await checkA11yLightAndDark(page, `/guest/data as a facilitator (${language})`);
        // The account is still there.
        expect((await call(request, '/guest/read', { guest: { id: guest.id, token: guest.token } })).api).toEqual({ status: 'success' });
        expect(missing).toEqual([]);
      });
    });
  }
}

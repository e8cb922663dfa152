/**
 * The forum (docs/forum.md): a guest opens the forum,
 * sees the messages another guest posted (seeded through the API) with the
 * list scrolled to the newest, posts a message that appears under their
 * username, cannot post an empty text, sees markup as text, and follows the
 * FAQ link to the rules. At a phone and a desktop size, scanned with axe.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { call, checkA11y, createGuest, signedIn, uniqueName, VIEWPORTS, watchMissingTexts, type TestGuest } from './helpers.ts';

async function post(request: APIRequestContext, guest: TestGuest, text: string): Promise<void> {
  const answer = await call(request, '/forum/create', { guest: { id: guest.id, token: guest.token }, message: { text } });
  expect(answer.api).toEqual({ status: 'success' });
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`forum at ${name}`, () => {
    test.use({ viewport, locale: 'en-US', timezoneId: 'Asia/Tokyo', serviceWorkers: 'block' });

    test('shows earlier messages scrolled to the newest, posts as text under the username, links to the FAQ', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      const other = await createGuest(request);
      const marker = uniqueName('seed');
      // Enough long messages that the list has to scroll (under the per-guest limit of posts a minute).
      for (let index = 0; index < 8; index += 1) {
        await post(request, other, `${marker} ${index}: ${'A long line about how the jail went today. '.repeat(6)}`);
      }
      const guest = await createGuest(request);
      await signedIn(page, guest, '/userForum');

      await expect(page.getByRole('heading', { level: 1, name: 'Forum' })).toBeVisible();
      const list = page.getByRole('list', { name: 'Messages' });
      const newestSeed = list.getByRole('listitem').filter({ hasText: `${marker} 7:` });
      await expect(newestSeed).toContainText(other.title);
      await expect(list.getByText(`${marker} 0:`)).toBeAttached();
      // Scrolled to the bottom on load: the list scrolls, and shows its end.
      await expect
        .poll(() =>
          list.evaluate((element) => element.scrollHeight > element.clientHeight && element.scrollTop + element.clientHeight >= element.scrollHeight - 1),
        )
        .toBe(true);
      await expect(newestSeed).toBeInViewport();
      await checkA11y(page, '/userForum');

      // An empty or blank text cannot be posted.
      const textArea = page.getByLabel('Your message');
      const postButton = page.getByRole('button', { name: 'Post' });
      await expect(postButton).toBeDisabled();
      await textArea.fill('   ');
      await expect(postButton).toBeDisabled();

      // Markup is shown as the text it is.
      const text = `<b>bold</b> from ${guest.title}`;
      await textArea.fill(text);
      await postButton.click();
      const posted = list.getByRole('listitem').filter({ hasText: text });
      await expect(posted).toContainText(guest.title);
      await expect(posted.locator('b')).toHaveCount(0);
      await expect(textArea).toHaveValue('');
      await expect(posted).toBeInViewport();
      const stored = await call(request, '/forum/read', { guest: { id: guest.id, token: guest.token } });
      expect((stored.messages as { text: string; username: string }[]).at(-1)).toMatchObject({ text, username: guest.title });

      await page.getByRole('link', { name: 'Questions? Read the rules' }).click();
      await expect(page).toHaveURL(/\/rules$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Rules' })).toBeVisible();
      expect(missing).toEqual([]);
    });

    test('is reached from the account menu, on a phone as on a desktop', async ({ page, request }) => {
      const guest = await createGuest(request);
      await signedIn(page, guest, '/guest/show');
      await page.getByRole('main').getByRole('link', { name: 'Forum' }).click();
      await expect(page).toHaveURL(/\/userForum$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Forum' })).toBeVisible();
    });

    test('shows the messages before the latest 100 on request, keeping the list where it was', async ({ page, request }) => {
      const marker = uniqueName('page');
      // 110 messages from 11 guests (10 a minute each): the first ten fall before the latest 100.
      for (let poster = 0; poster < 11; poster += 1) {
        const guest = await createGuest(request);
        for (let index = 0; index < 10; index += 1) await post(request, guest, `${marker} ${poster * 10 + index}`);
      }
      const reader = await createGuest(request);
      await signedIn(page, reader, '/userForum');
      const list = page.getByRole('list', { name: 'Messages' });
      await expect(list.getByText(`${marker} 109`, { exact: true })).toBeVisible();
      await expect(list.getByText(`${marker} 9`, { exact: true })).toHaveCount(0);
      await page.getByRole('button', { name: 'Show earlier messages' }).click();
      await expect(list.getByText(`${marker} 9`, { exact: true })).toHaveCount(1);
      await expect(list.getByText(`${marker} 0`, { exact: true })).toHaveCount(1);
      // The newest stays in view: the page went on top, out of sight.
      await expect(list.getByText(`${marker} 109`, { exact: true })).toBeInViewport();
      await checkA11y(page, '/userForum (earlier messages)');
    });
  });
}

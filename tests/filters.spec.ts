/**
 * /filters, the guest's approved scenes (docs/api.md, "Approved scenes"):
 * a facilitator signs in as the guest and lands there, sees each scene with
 * its date and warden, and removes them one by one with a confirmation
 * until the empty state shows; the account menu links to it. Scenes are
 * seeded with `POST /dev/feature-images`. At a phone and a desktop size,
 * each state scanned with axe.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { call, checkA11y, createGuest, signedIn, uniqueName, VIEWPORTS, watchMissingTexts, type TestGuest } from './helpers.ts';

const jpeg = `data:image/jpeg;base64,${readFileSync(new URL('../src/server/jail/fixtures/canvas-100x75.jpg', import.meta.url)).toString('base64')}`;

async function admin(request: APIRequestContext, args: string[]): Promise<string[]> {
  const response = await request.post('/dev/admin', { data: { args } });
  expect(response.status(), args.join(' ')).toBe(200);
  return ((await response.json()) as { lines: string[] }).lines;
}

async function seedScene(request: APIRequestContext, guest: TestGuest, wardenId: number | null): Promise<number> {
  const response = await request.post('/dev/feature-images', { data: { guestId: guest.id, data: jpeg, wardenId } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { id: number }).id;
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`approved scenes at ${name}`, () => {
    test.use({ viewport, locale: 'en-US', timezoneId: 'Asia/Tokyo', serviceWorkers: 'block' });

    test('a facilitator lands on the guest’s approved scenes and removes them, each after a confirmation', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      const guest = await createGuest(request);
      const wardenTitle = uniqueName('Warden');
      const wardenEmail = `${uniqueName('warden')}@example.com`;
      const [created] = await admin(request, ['create-warden', '--title', wardenTitle, '--email', wardenEmail]);
      const wardenId = Number(/^warden (\d+)/.exec(created ?? '')?.[1]);
      const kept = await seedScene(request, guest, wardenId);
      const removed = await seedScene(request, guest, null);
      const [, , link] = await admin(request, ['facilitator-token', '--warden', wardenEmail, '--guest', String(guest.id)]);

      await page.goto(new URL(link ?? '').pathname);
      await expect(page).toHaveURL(/\/filters$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Approved scenes' })).toBeVisible();
      const scenes = page.getByRole('list', { name: 'Approved scenes' }).getByRole('listitem');
      await expect(scenes).toHaveCount(2);
      await expect(scenes.first().getByRole('img', { name: /^Camera view approved on / })).toBeVisible();
      await expect(scenes.first()).toContainText(`by ${wardenTitle}`);
      await expect(scenes.nth(1)).not.toContainText('by ');
      await expect(page.getByRole('navigation')).toBeVisible();
      await checkA11y(page, '/filters');

      // The second scene: asked first, kept on 'Keep it', removed on 'Yes, remove it'.
      await scenes
        .nth(1)
        .getByRole('button', { name: /^Remove the scene approved on / })
        .click();
      await expect(scenes.nth(1)).toContainText('Remove this scene?');
      await checkA11y(page, '/filters (confirming)');
      await scenes.nth(1).getByRole('button', { name: 'Keep it' }).click();
      await expect(scenes).toHaveCount(2);
      await scenes
        .nth(1)
        .getByRole('button', { name: /^Remove the scene approved on / })
        .click();
      await scenes.nth(1).getByRole('button', { name: 'Yes, remove it' }).click();
      await expect(scenes).toHaveCount(1);
      const left = await call(request, '/featureImage/read', { guest: { id: guest.id, token: guest.token } });
      expect((left.featureImages as { id: number }[]).map((scene) => scene.id)).toEqual([kept]);
      expect(removed).not.toBe(kept);

      await scenes
        .first()
        .getByRole('button', { name: /^Remove the scene approved on / })
        .click();
      await scenes.first().getByRole('button', { name: 'Yes, remove it' }).click();
      await expect(page.getByText('No approved scenes yet.', { exact: false })).toBeVisible();
      await checkA11y(page, '/filters (empty)');
      expect(missing).toEqual([]);
    });

    test('the account menu links to the approved scenes', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      const guest = await createGuest(request);
      await seedScene(request, guest, null);
      await signedIn(page, guest, '/guest/show');
      await page.getByRole('link', { name: 'Approved scenes' }).click();
      await expect(page).toHaveURL(/\/filters$/);
      await expect(page.getByRole('list', { name: 'Approved scenes' }).getByRole('listitem')).toHaveCount(1);
      const answer = await call(request, '/featureImage/read', { guest: { id: guest.id, token: guest.token } });
      expect((answer.featureImages as unknown[]).length).toBe(1);
      expect(missing).toEqual([]);
    });
  });
}

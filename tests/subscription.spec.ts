/**
 * /subscription against the built client and the real server on the local
 * provider (docs/payments.md): light with 4242 (the amount and the next
 * payment said), declined cards (the decline in the app's language beside
 * the card number, the plan unchanged, the card kept to correct), standard
 * with 3155 through the authentication step, a card update and
 * unsubscribing with a confirm; in English and Japanese at a phone and a
 * desktop size, scanned with axe.
 */
import { expect, test, type Page } from '@playwright/test';
import { checkA11y, createGuest, signedIn, VIEWPORTS, watchMissingTexts } from './helpers.ts';

async function payWith(page: Page, number: string, submit: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: submit }).click();
}

async function expectAlert(page: Page, text: string | RegExp) {
  await expect(page.getByTestId('subscription-alert')).toContainText(text);
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`subscription at ${name}`, () => {
    test.use({ viewport, locale: 'en-US', serviceWorkers: 'block' });

    test('subscribes, is refused a declined card, authenticates, updates the card and unsubscribes', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      const guest = await createGuest(request);
      await signedIn(page, guest, '/subscription');
      await expect(page.getByTestId('current-plan')).toHaveText('Trial');
      await expect(page.getByTestId('plan-light')).toContainText('¥3,000 a month, up to 15 hours of jail a month');
      await expect(page.getByTestId('plan-standard')).toContainText('¥7,500 a month, no limit');
      await expect(page.getByTestId('plan-university')).toContainText('Given on application');
      await checkA11y(page, '/subscription on the trial');

      // Light with 4242: at once.
      await page.getByRole('button', { name: 'Subscribe to Light' }).click();
      await expect(page.getByRole('heading', { name: 'Pay for Light by card' })).toBeVisible();
      await checkA11y(page, 'the card form');
      // The number is grouped in fours and the expiry written MM/YY as they are typed.
      await page.getByLabel('Card number').pressSequentially('4242424242424242');
      await expect(page.getByLabel('Card number')).toHaveValue('4242 4242 4242 4242');
      await page.getByLabel('Expiry (MM/YY)').pressSequentially('1234');
      await expect(page.getByLabel('Expiry (MM/YY)')).toHaveValue('12/34');
      await page.getByLabel('Security code').fill('123');
      await page.getByRole('button', { name: 'Pay and subscribe' }).click();
      await expectAlert(page, /You are now on the Light plan\. ¥[\d,]+ was charged to your card; your next payment is on \w{3} \d{1,2}, \d{4}, /);
      await expect(page.getByTestId('current-plan')).toHaveText('Light');
      await expect(page.getByTestId('remaining-hours')).toHaveText('15 hours left this month');
      await expect(page.getByText(/Paid on day \d+ of each month/)).toBeVisible();
      await expect(page.getByTestId('card-on-file')).toHaveText('Card: visa ending in 4242');
      await checkA11y(page, '/subscription on light');

      // Standard with 9995, then 0002: each declined in its own words beside the card number, the plan stays light.
      await page.getByRole('button', { name: 'Subscribe to Standard' }).click();
      await payWith(page, '4000 0000 0000 9995', 'Pay and subscribe');
      const cardNumber = page.getByLabel('Card number');
      await expect(cardNumber).toHaveAccessibleDescription('Your card has insufficient funds. Please use another card.');
      await page.getByLabel('Card number').fill('4000000000000002');
      await page.getByRole('button', { name: 'Pay and subscribe' }).click();
      await expect(cardNumber).toHaveAccessibleDescription('Your card was declined. Please use another card.');
      await expect(cardNumber).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByRole('alertdialog')).toHaveCount(0);
      await expect(page.getByTestId('current-plan')).toHaveText('Light');
      // The form stays open with the card as typed, to be corrected.
      await expect(page.getByRole('heading', { name: 'Pay for Standard by card' })).toBeVisible();
      await expect(cardNumber).toHaveValue('4000 0000 0000 0002');
      await expect(page.getByLabel('Expiry (MM/YY)')).toHaveValue('12/34');
      await page.screenshot({ path: `/tmp/shots-3/declined-en-${name.split(' ')[0]}.png`, fullPage: true });

      // Standard with 3155: the authentication step, then standard.
      await page.getByRole('button', { name: 'Subscribe to Standard' }).click();
      await payWith(page, '4000 0025 0000 3155', 'Pay and subscribe');
      const step = page.getByRole('dialog', { name: 'Authenticate this payment' });
      await expect(step).toBeVisible();
      await expect(page.getByTestId('current-plan')).toHaveText('Light');
      await checkA11y(page, 'the authentication step');
      await step.getByRole('button', { name: 'Approve' }).click();
      await expect(page.getByTestId('current-plan')).toHaveText('Standard');
      // The alert names the same next payment as the plan does.
      const nextPayment = (await page.getByText(/^Next payment: /).textContent())?.replace('Next payment: ', '') ?? '';
      await expectAlert(page, `your next payment is on ${nextPayment}.`);
      await expectAlert(page, /You are now on the Standard plan\. ¥[\d,]+ was charged/);
      await page.screenshot({ path: `/tmp/shots-3/subscribed-en-${name.split(' ')[0]}.png`, fullPage: true });
      await expect(page.getByRole('button', { name: /^Subscribe to/ })).toHaveCount(0);

      // A new card.
      await page.getByRole('button', { name: 'Update card' }).click();
      await expect(page.getByRole('heading', { name: 'Your new card' })).toBeVisible();
      await payWith(page, '4242 4242 4242 4242', 'Save card');
      await expectAlert(page, 'Your card has been updated.');
      await expect(page.getByTestId('card-on-file')).toHaveText('Card: visa ending in 4242');

      // Unsubscribe, confirmed.
      page.once('dialog', (dialog) => {
        expect(dialog.message()).toContain('Unsubscribe from your plan?');
        void dialog.accept();
      });
      await page.getByRole('button', { name: 'Unsubscribe' }).click();
      await expectAlert(page, 'You have unsubscribed.');
      await expect(page.getByTestId('current-plan')).toHaveText('Trial');
      await expect(page.getByText(/^Your trial ends on /)).toBeVisible();
      await checkA11y(page, '/subscription after unsubscribing');
      expect(missing).toEqual([]);
    });
  });
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`subscription in Japanese at ${name}`, () => {
    test.use({ viewport, locale: 'ja-JP', serviceWorkers: 'block' });

    test('shows the plans with prices in Japanese, a declined card in Japanese beside the number, then the payment', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      const guest = await createGuest(request, { language: 'ja' });
      await signedIn(page, guest, '/subscription');
      await expect(page.getByTestId('current-plan')).toHaveText('トライアル');
      await expect(page.getByTestId('plan-light')).toContainText('月額3,000円、月15時間まで');
      await expect(page.getByTestId('plan-standard')).toContainText('月額7,500円、時間無制限');
      await expect(page.getByTestId('plan-university')).toContainText('月額1,500円、24歳未満の学生向け');
      await expect(page.getByTestId('plan-free')).toContainText('100日間無料');
      await page.getByRole('button', { name: 'ライトに登録する' }).click();
      const cardNumber = page.getByLabel('カード番号');
      await cardNumber.pressSequentially('4000000000000002');
      await expect(cardNumber).toHaveValue('4000 0000 0000 0002');
      // The expiry typed as the digits alone, as many do from the card.
      await page.getByLabel('有効期限（MM/YY）').fill('1234');
      await page.getByLabel('セキュリティコード').fill('123');
      await page.getByRole('button', { name: '支払って登録する' }).click();
      await expect(cardNumber).toHaveAccessibleDescription('カードが承認されませんでした。別のカードをお使いください。');
      await expect(page.getByRole('alertdialog')).toHaveCount(0);
      await expect(page.getByTestId('current-plan')).toHaveText('トライアル');
      await checkA11y(page, '/subscription in Japanese');
      await page.screenshot({ path: `/tmp/shots-3/declined-ja-${name.split(' ')[0]}.png`, fullPage: true });
      // Only the number is corrected: the rest of the card is still there.
      await expect(page.getByLabel('有効期限（MM/YY）')).toHaveValue('12/34');
      await cardNumber.fill('4242 4242 4242 4242');
      await page.getByRole('button', { name: '支払って登録する' }).click();
      await expect(page.getByTestId('current-plan')).toHaveText('ライト');
      await expectAlert(page, /ライトプランに登録しました。カードで￥[\d,]+をお支払いいただきました。次回のお支払いは\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}.*です。/);
      await page.screenshot({ path: `/tmp/shots-3/subscribed-ja-${name.split(' ')[0]}.png`, fullPage: true });
      expect(missing).toEqual([]);
    });
  });
}

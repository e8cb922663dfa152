import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jails, payments } from '../../db/schema/index.ts';
import { runAdmin } from '../../admin.ts';
import { apiBlock, bookJail, call, credentials, fail, readyGuest, signIn, signUp, succeed, useTestServer, type TestGuest } from '../../test/harness.ts';

const server = useTestServer();

const HOUR = 3_600_000;
const CARDS = {
  succeeds: '4242 4242 4242 4242',
  authenticates: '4000 0025 0000 3155',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  expired: '4000 0000 0000 0069',
  incorrectCvc: '4000 0000 0000 0127',
  processingError: '4000 0000 0000 0119',
} as const;
const PLAN = { trial: 1, university: 2, standard: 3, free: 4, light: 5 } as const;

interface Subscription {
  plan: number;
  paymentDay: number | null;
  nextPaymentAt: number | null;
  expiredAt: number | null;
  card: { brand: string; last4: string } | null;
}
interface Answer {
  guest: { subscriptionPlan: number; subscriptionExpiredAt: number | null; totalDurationThisMonth: number };
  subscription: Subscription;
  clientSecret: string | null;
  payment: { status: string; amountYen: number; decline: string | null } | null;
}

/** Moves the server's clock to `time` through `POST /dev/clock` (which ticks the schedulers). */
async function moveClockTo(time: number): Promise<void> {
  const response = await server.app.inject({ method: 'POST', url: '/dev/clock', payload: { offsetMs: time - Date.now() } });
  expect(response.statusCode).toBe(200);
}

function body(guest: TestGuest, fields: Record<string, unknown> = {}, language: 'en' | 'ja' = 'en') {
  return { api: apiBlock(language), guest: credentials(guest), ...fields };
}

type TypedCard = { number: string; expMonth: number; expYear: number; cvc: string };
const TYPED: TypedCard = { number: CARDS.succeeds, expMonth: 12, expYear: 2040, cvc: '123' };

/** The local card check's answer: the card, or why it is refused. */
async function checkCard(guest: TestGuest, card: TypedCard) {
  return (await succeed(server.app, '/payments/local/token', body(guest, { card }))) as unknown as {
    card: { token: string; brand: string; last4: string } | null;
    decline: string | null;
  };
}

async function cardToken(guest: TestGuest, number: string): Promise<string> {
  return String((await checkCard(guest, { ...TYPED, number })).card?.token);
}

async function subscribe(guest: TestGuest, plan: number, number: string): Promise<Answer> {
  const token = await cardToken(guest, number);
  return (await succeed(server.app, '/guest/subscribe', body(guest, { subscription: { plan, token } }))) as unknown as Answer;
}

async function current(guest: TestGuest): Promise<Answer> {
  return (await succeed(server.app, '/payments/subscription', body(guest))) as unknown as Answer;
}

async function paymentsOf(guest: TestGuest) {
  return server.app.db.select().from(payments).where(eq(payments.guestId, guest.id)).orderBy(payments.id);
}

describe('the local provider’s card form', () => {
  it('keeps only the brand, last four and outcome of a test card and answers a token', async () => {
    const guest = await signUp(server.app);
    const answer = await checkCard(guest, { ...TYPED, expYear: 40 });
    expect(answer).toMatchObject({ card: { brand: 'visa', last4: '4242' }, decline: null });
    expect(answer.card?.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses other numbers, past expiry dates and malformed security codes with the decline code, no token', async () => {
    const guest = await signUp(server.app);
    expect(await checkCard(guest, { ...TYPED, number: '4111 1111 1111 1111' })).toMatchObject({ card: null, decline: 'incorrect_number' });
    expect(await checkCard(guest, { ...TYPED, expYear: 2001 })).toMatchObject({ card: null, decline: 'invalid_expiry' });
    expect(await checkCard(guest, { ...TYPED, expMonth: 13 })).toMatchObject({ card: null, decline: 'invalid_expiry' });
    expect(await checkCard(guest, { ...TYPED, cvc: '12a' })).toMatchObject({ card: null, decline: 'incorrect_cvc' });
  });

  it('slows down a guest trying card after card: 20 in 10 minutes, then the rate limit', async () => {
    const guest = await signUp(server.app);
    const card = { ...TYPED, number: '4111 1111 1111 1111' };
    for (let tried = 0; tried < 20; tried++) {
      expect((await checkCard(guest, card)).decline).toBe('incorrect_number');
    }
    expect(await fail(server.app, '/payments/local/token', body(guest, { card: TYPED }))).toBe('Too many attempts. Please wait a few minutes and try again.');
  });

  it('asks for a session and refuses a token it never issued', async () => {
    const guest = await signUp(server.app);
    await fail(server.app, '/payments/local/token', {
      api: apiBlock(),
      guest: { id: guest.id, token: 'wrong' },
      card: { number: CARDS.succeeds, expMonth: 1, expYear: 2040, cvc: '123' },
    });
    const message = await fail(server.app, '/guest/subscribe', body(guest, { subscription: { plan: PLAN.light, token: 'never-issued' } }));
    expect(message).toBe('This card could not be read. Please enter it again.');
  });

  it('names the local provider and no publishable key', async () => {
    const answer = await succeed(server.app, '/payments/config', { api: apiBlock() });
    expect(answer).toMatchObject({ provider: 'local', publishableKey: null });
  });
});

describe('/guest/subscribe on the local provider', () => {
  it('4242: light at once, with the payment day, the next payment and the card on file', async () => {
    const guest = await signUp(server.app);
    const answer = await subscribe(guest, PLAN.light, CARDS.succeeds);
    expect(answer.clientSecret).toBeNull();
    expect(answer.payment).toMatchObject({ status: 'succeeded', decline: null });
    expect(answer.payment?.amountYen).toBeGreaterThan(0);
    expect(answer.guest.subscriptionPlan).toBe(PLAN.light);
    expect(answer.subscription).toMatchObject({ plan: PLAN.light, card: { brand: 'visa', last4: '4242' }, expiredAt: null });
    expect(answer.subscription.paymentDay).toBeGreaterThanOrEqual(1);
    expect(answer.subscription.nextPaymentAt).toBeGreaterThan(server.clock.now());
    const [payment] = await paymentsOf(guest);
    expect(payment).toMatchObject({ provider: 'local', plan: PLAN.light, status: 'succeeded' });
  });

  it('3155: a client secret and no change until the guest approves; then standard', async () => {
    const guest = await signUp(server.app);
    const answer = await subscribe(guest, PLAN.standard, CARDS.authenticates);
    expect(answer.clientSecret).toMatch(/^lpi_.+_secret_.+$/);
    expect(answer.guest.subscriptionPlan).toBe(PLAN.trial);
    const confirmed = (await succeed(
      server.app,
      '/payments/local/confirm',
      body(guest, { payment: { clientSecret: answer.clientSecret, approve: true } }),
    )) as unknown as Answer;
    expect(confirmed.guest.subscriptionPlan).toBe(PLAN.standard);
    expect(confirmed.subscription.card).toEqual({ brand: 'visa', last4: '3155' });
    // Confirming again changes nothing.
    const again = (await succeed(
      server.app,
      '/payments/local/confirm',
      body(guest, { payment: { clientSecret: answer.clientSecret, approve: false } }),
    )) as unknown as Answer;
    expect(again.guest.subscriptionPlan).toBe(PLAN.standard);
    expect((await paymentsOf(guest)).map((payment) => payment.status)).toEqual(['succeeded']);
  });

  it('3155 declined at the authentication step: authentication_failed, the plan unchanged, the failed payment kept', async () => {
    const guest = await signUp(server.app);
    await subscribe(guest, PLAN.light, CARDS.succeeds);
    const answer = await subscribe(guest, PLAN.standard, CARDS.authenticates);
    expect(answer.payment).toMatchObject({ status: 'requires_action', decline: null });
    const declined = (await succeed(
      server.app,
      '/payments/local/confirm',
      body(guest, { payment: { clientSecret: answer.clientSecret, approve: false } }),
    )) as unknown as Answer;
    expect(declined.payment).toEqual({ status: 'failed', amountYen: answer.payment?.amountYen, decline: 'authentication_failed' });
    const after = await current(guest);
    expect(after.guest.subscriptionPlan).toBe(PLAN.light);
    expect(after.subscription.card?.last4).toBe('4242');
    expect((await paymentsOf(guest)).map((payment) => payment.status)).toEqual(['succeeded', 'failed']);
  });

  it('each test card declines with its own code, the same in either language; the plan and card unchanged', async () => {
    const guest = await signUp(server.app);
    await subscribe(guest, PLAN.light, CARDS.succeeds);
    const declines = [
      [CARDS.declined, 'card_declined'],
      [CARDS.insufficientFunds, 'insufficient_funds'],
      [CARDS.expired, 'expired_card'],
      [CARDS.incorrectCvc, 'incorrect_cvc'],
      [CARDS.processingError, 'other'],
    ] as const;
    for (const [number, decline] of declines) {
      const token = await cardToken(guest, number);
      for (const language of ['en', 'ja'] as const) {
        const answer = (await succeed(
          server.app,
          '/guest/subscribe',
          body(guest, { subscription: { plan: PLAN.standard, token } }, language),
        )) as unknown as Answer;
        expect(answer.payment).toMatchObject({ status: 'failed', decline });
        expect(answer.clientSecret).toBeNull();
      }
    }
    const after = await current(guest);
    expect(after.subscription).toMatchObject({ plan: PLAN.light, card: { last4: '4242' } });
    expect(after.payment).toBeNull();
    expect((await paymentsOf(guest)).filter((payment) => payment.status === 'failed')).toHaveLength(declines.length * 2);
  });

  it('refuses the plans given on application, the current plan and the trial', async () => {
    const guest = await signUp(server.app);
    const token = await cardToken(guest, CARDS.succeeds);
    for (const plan of [PLAN.university, PLAN.free]) {
      expect(await fail(server.app, '/guest/subscribe', body(guest, { subscription: { plan, token } }))).toContain('on application');
    }
    expect(await fail(server.app, '/guest/subscribe', body(guest, { subscription: { plan: PLAN.trial, token } }))).toContain('subscription.plan');
    await subscribe(guest, PLAN.standard, CARDS.succeeds);
    expect(await fail(server.app, '/guest/subscribe', body(guest, { subscription: { plan: PLAN.standard, token } }))).toBe('You are already on this plan.');
    expect(await paymentsOf(guest)).toHaveLength(1);
  });

  it('confirms only the guest’s own payments', async () => {
    const owner = await signUp(server.app);
    const other = await signUp(server.app);
    const answer = await subscribe(owner, PLAN.standard, CARDS.authenticates);
    const message = await fail(server.app, '/payments/local/confirm', body(other, { payment: { clientSecret: answer.clientSecret, approve: true } }));
    expect(message).toBe('This payment was not found.');
    expect((await current(owner)).guest.subscriptionPlan).toBe(PLAN.trial);
  });
});

describe('/guest/updateCard and /guest/unsubscribe', () => {
  it('replaces the card on file, and needs one to replace', async () => {
    const guest = await signUp(server.app);
    expect(await fail(server.app, '/guest/updateCard', body(guest, { subscription: { token: await cardToken(guest, CARDS.succeeds) } }))).toContain(
      'no card on file',
    );
    await subscribe(guest, PLAN.light, CARDS.succeeds);
    const answer = (await succeed(
      server.app,
      '/guest/updateCard',
      body(guest, { subscription: { token: await cardToken(guest, CARDS.authenticates) } }),
    )) as unknown as Answer;
    expect(answer.subscription).toMatchObject({ plan: PLAN.light, card: { last4: '3155' } });
  });

  it('ends light or standard at once, the trial running to the end of the month paid for', async () => {
    const guest = await signUp(server.app);
    const subscribed = await subscribe(guest, PLAN.standard, CARDS.succeeds);
    const answer = (await succeed(server.app, '/guest/unsubscribe', body(guest))) as unknown as Answer;
    expect(answer.guest.subscriptionPlan).toBe(PLAN.trial);
    expect(answer.guest.subscriptionExpiredAt).toBe(subscribed.subscription.nextPaymentAt);
    expect(answer.subscription).toMatchObject({ paymentDay: null, nextPaymentAt: null });
    expect(await fail(server.app, '/guest/unsubscribe', body(guest))).toBe('Only the light and standard plans can be unsubscribed.');
  });
});

describe('billing on the dev clock', () => {
  // Sunday 31 January 2027, 10:00 in Tokyo (the test guests' time zone).
  const JAN_31 = Date.UTC(2027, 0, 31, 1);

  it('prorates the first month to the 28th and renews on it; a declined renewal lapses to an expired trial', async () => {
    await moveClockTo(JAN_31);
    const guest = await signUp(server.app);
    const answer = await subscribe(guest, PLAN.light, CARDS.succeeds);
    // Paid on the 28th: 28 of January's 31 days until 28 February.
    expect(answer.subscription.paymentDay).toBe(28);
    expect(answer.subscription.nextPaymentAt).toBe(Date.UTC(2027, 1, 27, 15));
    expect((await paymentsOf(guest))[0]?.amountYen).toBe(Math.round((3000 * 28) / 31));

    await moveClockTo(Date.UTC(2027, 1, 27, 15, 1));
    const renewed = await current(guest);
    expect(renewed.subscription).toMatchObject({ plan: PLAN.light, nextPaymentAt: Date.UTC(2027, 2, 27, 15) });
    expect((await paymentsOf(guest)).map((payment) => [payment.status, payment.amountYen])).toEqual([
      ['succeeded', 2710],
      ['succeeded', 3000],
    ]);

    await succeed(server.app, '/guest/updateCard', body(guest, { subscription: { token: await cardToken(guest, CARDS.authenticates) } }));
    await moveClockTo(Date.UTC(2027, 2, 27, 15, 1));
    const lapsed = await current(guest);
    expect(lapsed.guest.subscriptionPlan).toBe(PLAN.trial);
    expect(lapsed.guest.subscriptionExpiredAt).toBeGreaterThanOrEqual(Date.UTC(2027, 2, 27, 15, 1));
    expect(lapsed.guest.subscriptionExpiredAt).toBeLessThanOrEqual(server.clock.now());
    expect(lapsed.subscription.nextPaymentAt).toBeNull();
    expect((await paymentsOf(guest)).map((payment) => payment.status)).toEqual(['succeeded', 'succeeded', 'failed']);
  });

  it('counts the hours really jailed on light and starts again when the guest’s month turns', async () => {
    // Saturday 30 January 2027, 21:00 in Tokyo.
    await moveClockTo(Date.UTC(2027, 0, 30, 12));
    const guest = await readyGuest(server.app);
    await subscribe(guest, PLAN.light, CARDS.succeeds);

    /** A jail the guest enters at its start and stays in until its end. */
    async function sitThrough(startTime: number, hours: number): Promise<void> {
      const booked = await bookJail(server.app, guest, (startTime - server.clock.now()) / HOUR, hours);
      await moveClockTo(booked.startTime);
      await server.app.db
        .update(jails)
        .set({ enteredAt: booked.startTime })
        .where(and(eq(jails.reservationId, booked.id)));
      await moveClockTo(booked.startTime + hours * HOUR + 1_000);
    }

    // 31 January, 21:00 to 23:00 in Tokyo: two hours of January.
    await sitThrough(Date.UTC(2027, 0, 31, 12), 2);
    expect((await current(guest)).guest.totalDurationThisMonth).toBe(2);
    // Midnight in Tokyo: February begins with nothing used.
    await moveClockTo(Date.UTC(2027, 0, 31, 15, 0, 30));
    expect((await current(guest)).guest.totalDurationThisMonth).toBe(0);
    // 1 February, 01:00 to 02:15 in Tokyo.
    await sitThrough(Date.UTC(2027, 0, 31, 16), 1.25);
    expect((await current(guest)).guest.totalDurationThisMonth).toBe(1.25);

    // The booking cap counts February's bookings against the same 15 hours.
    await bookJail(server.app, guest, 24, 8);
    const refused = await call(server.app, '/reservation/create', {
      ...body(guest),
      reservation: { work: 'More', duration: 8, startTime: Date.UTC(2027, 1, 3, 1), repeatType: 'none' },
    });
    expect(refused.body.api.errorMessage).toContain('The light plan allows 15 hours of jail a month');
  });
});

describe('plans given on application', () => {
  it('are granted by the admin command for their time, end a paid plan’s billing, and then run out', async () => {
    const guest = await readyGuest(server.app);
    await subscribe(guest, PLAN.light, CARDS.succeeds);
    const start = server.clock.now();
    const lines = await runAdmin(['grant-plan', '--guest', String(guest.id), '--plan', 'university'], server.app.db, server.clock, server.app.config);
    expect(lines[0]).toMatch(new RegExp(`^guest ${guest.id} \\(.+\\) is on the university plan until `));
    const granted = await current(guest);
    expect(granted.subscription).toMatchObject({ plan: PLAN.university, paymentDay: null, nextPaymentAt: null });
    expect(granted.subscription.expiredAt).toBeGreaterThanOrEqual(start + 365 * 24 * HOUR);
    expect(granted.subscription.expiredAt).toBeLessThan(start + 366 * 24 * HOUR);

    await runAdmin(['grant-plan', '--guest', String(guest.id), '--plan', 'free'], server.app.db, server.clock, server.app.config);
    const free = await current(guest);
    expect(free.subscription.plan).toBe(PLAN.free);
    // 100 days later the plan has run out: booking is refused (the session has ended too: the guest signs in again).
    await moveClockTo((free.subscription.expiredAt ?? 0) + HOUR);
    const returning = await signIn(server.app, guest);
    const startTime = Math.ceil((server.clock.now() + 24 * HOUR) / HOUR) * HOUR;
    expect(await fail(server.app, '/reservation/create', body(returning, { reservation: { work: 'Essay', duration: 1, startTime, repeatType: 'none' } }))).toBe(
      'Your plan has ended. Please choose a plan on the subscription page to book a jail.',
    );
    await moveClockTo(Date.now());
  });

  it('refuses an unknown plan or guest', async () => {
    await expect(runAdmin(['grant-plan', '--guest', '1', '--plan', 'standard'], server.app.db, server.clock, server.app.config)).rejects.toThrow(
      '--plan is not valid',
    );
    await expect(runAdmin(['grant-plan', '--guest', '999999', '--plan', 'free'], server.app.db, server.clock, server.app.config)).rejects.toThrow(
      'no guest has the id 999999',
    );
  });
});

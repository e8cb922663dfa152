import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { LocalPaymentProvider } from './local.ts';
import type { PaymentProvider } from './provider.ts';
import { StripePaymentProvider, type StripeSettings } from './stripe.ts';
import { renewDue, type PaymentsContext } from './subscriptions.ts';
import { rollOverMonthlyUsage } from './usage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The local provider when `PAYMENT_PROVIDER=local` or Stripe's keys are not set, else Stripe (docs/payments.md). */
    paymentProvider: PaymentProvider;
    /** The webhook's signing secret; null without Stripe or without `STRIPE_WEBHOOK_SECRET`. */
    stripeWebhookSecret: string | null;
    /** Monthly renewals and the turn of the month's usage; `POST /dev/clock` ticks it. */
    billingScheduler: BillingScheduler;
    paymentsContext(): PaymentsContext;
  }
}

/** How often renewals are looked for. */
export const BILLING_INTERVAL_MS = 60_000;

/**
 * Charges due renewals and sets the light plan's hours back to 0 when a
 * guest's month turns. A pass runs at most once at a time; `tick` runs one
 * now (after the one under way, if any).
 */
export class BillingScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly context: () => PaymentsContext,
    private readonly invalidate: (guestId: number) => Promise<void>,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.tick(), BILLING_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  tick(): Promise<void> {
    this.running = this.running.then(() => this.pass());
    return this.running;
  }

  private async pass(): Promise<void> {
    try {
      const context = this.context();
      const changed = [...(await renewDue(context)), ...(await rollOverMonthlyUsage(context.db, context.clock.now()))];
      for (const guestId of new Set(changed)) await this.invalidate(guestId);
    } catch (error) {
      this.log.error({ err: error }, 'billing pass failed');
    }
  }
}

export interface PaymentsOptions extends Record<string, unknown> {
  /** Stripe's settings (`stripeSettingsFrom(process.env)`); null for the local provider. */
  stripe: StripeSettings | null;
}

/** Chooses the payment provider and runs the billing scheduler from the moment the app is ready. */
async function paymentsPlugin(app: FastifyInstance, options: PaymentsOptions): Promise<void> {
  // Production without Stripe's keys runs the local provider only when named (config.ts refuses to start otherwise).
  const stripe = app.config.paymentProvider === 'local' ? null : options.stripe;
  const provider: PaymentProvider = stripe === null ? new LocalPaymentProvider(app.db, app.clock) : new StripePaymentProvider(stripe);
  app.decorate('paymentProvider', provider);
  app.decorate('stripeWebhookSecret', stripe?.webhookSecret ?? null);
  const context = (): PaymentsContext => ({ db: app.db, clock: app.clock, provider });
  app.decorate('paymentsContext', context);
  const scheduler = new BillingScheduler(context, (guestId) => app.invalidateReadCache(guestId), app.log);
  app.decorate('billingScheduler', scheduler);
  app.addHook('onReady', async () => scheduler.start());
  app.addHook('preClose', () => scheduler.stop());
}

export default fastifyPlugin(paymentsPlugin, { name: 'payments' });

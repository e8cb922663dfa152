import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { emailSchema, phoneSchema, titleSchema } from '../shared/api/guest.ts';
import { GRANTED_PLAN_NAMES, PLANS } from '../shared/plans.ts';
import { appUrl, type Config } from './config.ts';
import type { Database } from './db/database.ts';
import { facilitatorTokens, guests, wardens } from './db/schema/index.ts';
import type { Clock } from './lib/clock.ts';
import { hashPassword, hashToken, newToken } from './lib/secrets.ts';

export const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-warden --title <name> --email <address> [--phone <number>]
      Creates a warden account and prints its generated password (shown once).
  list-wardens
      Lists the wardens.
  facilitator-token --warden <email> --guest <guest id> [--hours <1-168>]
      Issues a token that lets the warden sign in as the guest (default 8 hours)
      and prints it with the /guest/loginAsLimFacilitator link.
  grant-plan --guest <guest id> --plan <university|free>
      Gives a plan granted on application: university for ${PLANS.university.grantedDays} days, free for
      ${PLANS.free.grantedDays} days from now. A paid plan it replaces is no longer billed.

A server running on the same DATA_DIR runs the command itself (through its
socket DATA_DIR/admin.sock, which only its user can open); without one the
command opens the database (DATABASE_URL, else PGlite under DATA_DIR).`;

/** An operator's mistake: printed with the usage, exit status 2. */
export class UsageError extends Error {}

/**
 * A bad command line: a `UsageError`, or `util.parseArgs` rejecting an
 * unknown option (a TypeError whose code starts ERR_PARSE_ARGS).
 */
export function isUsageError(error: unknown): error is Error {
  if (error instanceof UsageError) return true;
  return error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS');
}

const OPTIONS = {
  title: { type: 'string' },
  email: { type: 'string' },
  phone: { type: 'string' },
  warden: { type: 'string' },
  guest: { type: 'string' },
  hours: { type: 'string' },
  plan: { type: 'string' },
} as const;

const DAY_MS = 86_400_000;

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function parsed<Schema extends z.ZodType>(schema: Schema, value: string, name: string): z.output<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) throw new UsageError(`--${name} is not valid: ${JSON.stringify(value)}`);
  return result.data;
}

/**
 * Runs one admin command against the database; returns the lines to print.
 * Throws `UsageError` for a bad command line.
 */
export async function runAdmin(args: readonly string[], db: Database, clock: Clock, config: Config): Promise<string[]> {
  const { positionals, values } = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true });
  const [command] = positionals;
  const now = clock.now();
  switch (command) {
    case 'create-warden': {
      const title = parsed(titleSchema, required(values.title, 'title'), 'title');
      const email = parsed(emailSchema, required(values.email, 'email'), 'email');
      const phone = values.phone === undefined ? null : parsed(phoneSchema, values.phone, 'phone');
      const password = newToken().slice(0, 20);
      const [warden] = await db
        .insert(wardens)
        .values({ title, email, phone, passwordHash: await hashPassword(password), createdAt: now })
        .onConflictDoNothing()
        .returning({ id: wardens.id });
      if (warden === undefined) throw new UsageError(`a warden named ${title} or with ${email} exists already`);
      return [`warden ${warden.id} created: ${title} <${email}>`, `password (shown once): ${password}`];
    }
    case 'list-wardens': {
      const rows = await db.select().from(wardens).orderBy(wardens.id);
      if (rows.length === 0) return ['no wardens'];
      return rows.map((warden) => `${warden.id}\t${warden.title}\t${warden.email}\t${warden.phone ?? ''}`);
    }
    case 'facilitator-token': {
      const email = parsed(emailSchema, required(values.warden, 'warden'), 'warden');
      const guestId = parsed(z.coerce.number().int().min(1).max(2_147_483_647), required(values.guest, 'guest'), 'guest');
      const hours = parsed(z.coerce.number().min(1).max(168), values.hours ?? '8', 'hours');
      const [warden] = await db.select({ id: wardens.id }).from(wardens).where(eq(wardens.email, email));
      if (warden === undefined) throw new UsageError(`no warden has the address ${email}`);
      const [guest] = await db.select({ id: guests.id, title: guests.title }).from(guests).where(eq(guests.id, guestId));
      if (guest === undefined) throw new UsageError(`no guest has the id ${guestId}`);
      const token = newToken();
      const expiresAt = now + hours * 3_600_000;
      await db.insert(facilitatorTokens).values({ tokenHash: hashToken(token), wardenId: warden.id, guestId, createdAt: now, expiresAt });
      return [
        `facilitator token for guest ${guest.id} (${guest.title}), valid until ${new Date(expiresAt).toISOString()}:`,
        token,
        `${appUrl(config)}/guest/loginAsLimFacilitator/${token}/${guest.id}`,
      ];
    }
    case 'grant-plan': {
      const guestId = parsed(z.coerce.number().int().min(1).max(2_147_483_647), required(values.guest, 'guest'), 'guest');
      const plan = parsed(z.enum(GRANTED_PLAN_NAMES), required(values.plan, 'plan'), 'plan');
      const expiresAt = now + PLANS[plan].grantedDays * DAY_MS;
      const [granted] = await db
        .update(guests)
        .set({
          subscriptionPlan: PLANS[plan].code,
          subscriptionCreatedAt: now,
          subscriptionExpiredAt: expiresAt,
          // No renewal of a paid plan it replaces; the card stays on file.
          paymentDay: null,
          nextPaymentAt: null,
          updatedAt: now,
        })
        .where(eq(guests.id, guestId))
        .returning({ id: guests.id, title: guests.title });
      if (granted === undefined) throw new UsageError(`no guest has the id ${guestId}`);
      return [`guest ${granted.id} (${granted.title}) is on the ${plan} plan until ${new Date(expiresAt).toISOString()}`];
    }
    default:
      throw new UsageError(command === undefined ? 'no command given' : `unknown command ${command}`);
  }
}

import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { emailSchema, phoneSchema, titleSchema } from '../shared/api/guest.ts';
import { GRANTED_PLAN_NAMES, PLANS } from '../shared/plans.ts';
import { appUrl, type Config } from './config.ts';
import type { Database } from './db/database.ts';
import { facilitatorTokens, guests, sessions, wardens } from './db/schema/index.ts';
import type { Clock } from './lib/clock.ts';
import { hashPassword, hashToken, newToken } from './lib/secrets.ts';
import { auditLines, WARDEN_AUDIT_RETENTION_DAYS } from './services/warden-audit.ts';
import { endWardenSessions } from './services/wardens.ts';

export const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-warden --title <name> --email <address> [--phone <number>]
      Creates a warden account and prints its generated password (shown once).
  list-wardens
      Lists the wardens: id, name, address, phone, second factor, disabled.
  disable-warden --warden <email>
      The warden can no longer sign in; every console session of theirs ends,
      with its live sockets.
  enable-warden --warden <email>
      Lets a disabled warden sign in again.
  reset-second-factor --warden <email>
      Forgets the warden's authenticator (a lost phone) and ends their
      sessions; the next sign-in enrols a new one.
  audit [--warden <email>] [--guest <guest id>] [--days <1-${WARDEN_AUDIT_RETENTION_DAYS}>]
      Every jail a warden opened and every live video started, newest first,
      in the last 30 days by default (kept ${WARDEN_AUDIT_RETENTION_DAYS} days).
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
  days: { type: 'string' },
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

const guestIdSchema = z.coerce.number().int().min(1).max(2_147_483_647);

/**
 * Ends the relay sockets of console sessions a command ended: the server
 * running the command passes its `endSessionSockets` (every server's, with
 * Redis). A command run on the database itself has no sockets at hand: each
 * server's minute sweep ends those whose session is gone.
 */
export type EndSessionSockets = (kind: 'guest' | 'warden', tokenHashes: readonly string[]) => void;

/** The warden with this address (`--warden`), or a usage error. */
async function wardenNamed(db: Database, value: string | undefined): Promise<{ id: number; title: string; disabledAt: number | null }> {
  const email = parsed(emailSchema, required(value, 'warden'), 'warden');
  const [warden] = await db.select({ id: wardens.id, title: wardens.title, disabledAt: wardens.disabledAt }).from(wardens).where(eq(wardens.email, email));
  if (warden === undefined) throw new UsageError(`no warden has the address ${email}`);
  return warden;
}

/**
 * Runs one admin command against the database; returns the lines to print.
 * Throws `UsageError` for a bad command line.
 */
export async function runAdmin(
  args: readonly string[],
  db: Database,
  clock: Clock,
  config: Config,
  endSessionSockets: EndSessionSockets = () => undefined,
): Promise<string[]> {
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
      return rows.map((warden) =>
        [
          warden.id,
          warden.title,
          warden.email,
          warden.phone ?? '',
          warden.secondFactorSecret === null ? 'no second factor yet' : 'second factor',
          warden.disabledAt === null ? '' : `disabled since ${new Date(warden.disabledAt).toISOString()}`,
        ].join('\t'),
      );
    }
    case 'disable-warden': {
      const warden = await wardenNamed(db, values.warden);
      await db.update(wardens).set({ disabledAt: now }).where(eq(wardens.id, warden.id));
      const ended = await endWardenSessions(db, warden.id);
      endSessionSockets('warden', ended);
      // Nor may they go on as a guest: neither with a link issued before, nor in a session such a link opened.
      await db.delete(facilitatorTokens).where(eq(facilitatorTokens.wardenId, warden.id));
      const facilitated = await db.delete(sessions).where(eq(sessions.wardenId, warden.id)).returning({ tokenHash: sessions.tokenHash });
      endSessionSockets(
        'guest',
        facilitated.map((session) => session.tokenHash),
      );
      return [`warden ${warden.id} (${warden.title}) is disabled; ${ended.length} console session(s) and ${facilitated.length} facilitator session(s) ended`];
    }
    case 'enable-warden': {
      const warden = await wardenNamed(db, values.warden);
      await db.update(wardens).set({ disabledAt: null }).where(eq(wardens.id, warden.id));
      return [`warden ${warden.id} (${warden.title}) may sign in again`];
    }
    case 'reset-second-factor': {
      const warden = await wardenNamed(db, values.warden);
      await db.update(wardens).set({ secondFactorSecret: null, secondFactorLastStep: null }).where(eq(wardens.id, warden.id));
      const ended = await endWardenSessions(db, warden.id);
      endSessionSockets('warden', ended);
      return [
        `warden ${warden.id} (${warden.title}) has no second factor now; ${ended.length} console session(s) ended`,
        'the next sign-in enrols a new authenticator app',
      ];
    }
    case 'audit': {
      const days = parsed(z.coerce.number().int().min(1).max(WARDEN_AUDIT_RETENTION_DAYS), values.days ?? '30', 'days');
      const wardenId = values.warden === undefined ? undefined : (await wardenNamed(db, values.warden)).id;
      const guestId = values.guest === undefined ? undefined : parsed(guestIdSchema, values.guest, 'guest');
      return auditLines(db, { since: now - days * DAY_MS, wardenId, guestId });
    }
    case 'facilitator-token': {
      const warden = await wardenNamed(db, values.warden);
      if (warden.disabledAt !== null) throw new UsageError(`warden ${warden.id} (${warden.title}) is disabled`);
      const guestId = parsed(guestIdSchema, required(values.guest, 'guest'), 'guest');
      const hours = parsed(z.coerce.number().min(1).max(168), values.hours ?? '8', 'hours');
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
      const guestId = parsed(guestIdSchema, required(values.guest, 'guest'), 'guest');
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

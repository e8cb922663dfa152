import type { FastifyBaseLogger } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Socket } from 'socket.io';
import { DEFAULT_LANGUAGE } from '../../shared/constants.ts';
import { message, type MessageKey } from '../../shared/messages.ts';
import { languageOf, type Member } from './relay-sockets.ts';

/**
 * How many events a relay client may send (docs/jail.md, Relay: Budgets):
 * every socket and every account (a guest's devices together, a warden's
 * consoles together) has a budget of events per window, on each server.
 *
 * A real guest's device stays far below it: an alive check every 30 s, a
 * motion event at most once per episode (each a run of 30 s or more), a
 * patrol image at most every 10 s, a line spoken or typed every few seconds
 * at the most, a status at a click, and after a reconnect the events kept
 * during the outage (at most about 90 s of the above) at once with its
 * initialisation and, when a warden calls, a few dozen WebRTC signals. That
 * is under 80 events in the busiest 10 s; the socket's budget is half again
 * as many, and an account's is two devices' budgets. A console sends at a
 * warden's clicks and keystrokes, and a call's signals.
 */
export const RELAY_EVENT_BUDGET = {
  /** The window the budgets are counted in. */
  windowSeconds: 10,
  /** Events of one socket in a window. */
  perSocket: 120,
  /** Events of one account's sockets together in a window. */
  perAccount: 240,
} as const;

/** The budgets, in this server's memory: they guard this server's work and the consoles it sends to; a window ends by itself. */
export class EventBudget {
  private readonly sockets = new RateLimiterMemory({
    keyPrefix: 'relay-socket',
    points: RELAY_EVENT_BUDGET.perSocket,
    duration: RELAY_EVENT_BUDGET.windowSeconds,
  });
  private readonly accounts = new RateLimiterMemory({
    keyPrefix: 'relay-account',
    points: RELAY_EVENT_BUDGET.perAccount,
    duration: RELAY_EVENT_BUDGET.windowSeconds,
  });

  /** Spends an event of the socket's and then of the account's budget; whether both had it. */
  async spend(socketId: string, account: string): Promise<boolean> {
    try {
      await this.sockets.consume(socketId);
      await this.accounts.consume(account);
      return true;
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) return false;
      throw refusal;
    }
  }
}

/**
 * Every event the socket sends, known or not, first spends the socket's
 * and its account's budget; one over budget goes no further and its ack,
 * if it asked for one, says so.
 */
export function spendBudgetOnEvents(socket: Socket, member: Member, budget: EventBudget, log: FastifyBaseLogger): void {
  const account = member.kind === 'guest' ? `guest:${member.guestId}` : `warden:${member.warden.id}`;
  const language = member.kind === 'warden' ? member.language : DEFAULT_LANGUAGE;
  socket.use(([, payload, ...rest], next) => {
    const refuse = (key: MessageKey) => {
      const ack: unknown = rest.at(-1) ?? payload;
      if (typeof ack === 'function') ack({ ok: false, error: message(languageOf(payload) ?? language, key) });
    };
    budget.spend(socket.id, account).then(
      (within) => (within ? next() : refuse('relay_too_many_events')),
      (error: unknown) => {
        log.error({ err: error }, 'relay budget failed');
        refuse('server_error');
      },
    );
  });
}

import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Clock } from './clock.ts';

export type MessageChannel = 'email' | 'sms';

export interface OutgoingMessage {
  channel: MessageChannel;
  /** An e-mail address or a phone number. */
  to: string;
  /** The e-mail subject; empty for SMS. */
  subject: string;
  text: string;
}

export interface OutboxRecord extends OutgoingMessage {
  createdAt: number;
}

/** Something that delivers a message of one channel: SMTP, an SMS gateway. */
export interface MessageTransport {
  deliver(message: OutgoingMessage): Promise<void>;
}

/** E-mail by SMTP through nodemailer (`SMTP_URL`). */
export class SmtpTransport implements MessageTransport {
  private readonly transporter: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transporter = nodemailer.createTransport(smtpUrl);
  }

  async deliver(message: OutgoingMessage): Promise<void> {
    await this.transporter.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
  }
}

/**
 * Log-only delivery, which the operator chooses by name (`EMAIL_DELIVERY=log`,
 * `SMS_PROVIDER=log`): the message is not sent, and the log says so without
 * its text, which may hold a code or a link.
 */
export class UndeliveredTransport implements MessageTransport {
  constructor(private readonly log: FastifyBaseLogger) {}

  async deliver(message: OutgoingMessage): Promise<void> {
    this.log.warn({ channel: message.channel, to: message.to }, `no ${message.channel} transport: message not sent`);
  }
}

const CONSOLE_RULE = '─'.repeat(60);

/**
 * Outside production, for a channel without a transport: the whole message,
 * link or code included, is printed on the server's console (stdout), which
 * is how someone trying Warden locally signs up. Not a log line: the request
 * log never carries a token.
 */
export class ConsoleTransport implements MessageTransport {
  async deliver(message: OutgoingMessage): Promise<void> {
    const kind = message.channel === 'email' ? 'E-mail' : 'SMS';
    const lines = [
      CONSOLE_RULE,
      `${kind} printed here instead of sent (no ${message.channel === 'email' ? 'SMTP_URL' : 'SMS_PROVIDER'} set; docs/operations.md)`,
      `To: ${message.to}`,
      ...(message.subject === '' ? [] : [`Subject: ${message.subject}`]),
      '',
      message.text,
      CONSOLE_RULE,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}

/** How many messages the development outbox keeps (the oldest go first). */
const DEV_OUTBOX_CAPACITY = 500;

/**
 * Sends e-mail and SMS. Delivery runs in the background, so that a slow
 * mail server neither delays an answer nor tells by its timing whether an
 * address exists; a failed delivery is logged. With the development routes
 * on (`WARDEN_DEV=1`) every message is also kept in the development outbox
 * (`GET /dev/outbox`).
 */
export class Outbox {
  private readonly kept: OutboxRecord[] = [];

  constructor(
    private readonly transports: Record<MessageChannel, MessageTransport>,
    private readonly keepMessages: boolean,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  send(message: OutgoingMessage): void {
    if (this.keepMessages) {
      this.kept.push({ ...message, createdAt: this.clock.now() });
      if (this.kept.length > DEV_OUTBOX_CAPACITY) this.kept.shift();
    }
    this.transports[message.channel].deliver(message).catch((error: unknown) => {
      this.log.error({ err: error, channel: message.channel, to: message.to }, 'message delivery failed');
    });
  }

  /** The development outbox, oldest first. */
  messages(): readonly OutboxRecord[] {
    return this.kept;
  }
}

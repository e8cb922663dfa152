import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient.js';
import type Response from 'twilio/lib/http/response.js';
import type { SmsConfig } from '../config.ts';
import type { MessageTransport, OutgoingMessage } from './outbox.ts';

type TwilioSettings = Extract<SmsConfig, { provider: 'twilio' }>;

/**
 * Twilio's own HTTP client, with every request sent to `apiBase` instead of
 * Twilio's host (the path, form and authentication unchanged): how tests reach
 * a local stand-in for the API.
 */
class RebasedRequestClient extends twilio.RequestClient {
  constructor(private readonly apiBase: string) {
    super();
  }

  override request<TData>(options: RequestClient.RequestOptions<TData>): Promise<Response<TData>> {
    const original = new URL(options.uri);
    return super.request({ ...options, uri: new URL(`${original.pathname}${original.search}`, this.apiBase).href });
  }
}

/**
 * A number as Twilio takes it (E.164): one given with `+` is kept; a national
 * one (leading 0) gets the country code in place of the 0.
 */
export function internationalNumber(phone: string, countryCode: string): string {
  if (phone.startsWith('+')) return phone;
  return `+${countryCode}${phone.replace(/^0/, '')}`;
}

/** SMS through Twilio's Messages API (`SMS_PROVIDER=twilio`), with the official `twilio` package. */
export class TwilioTransport implements MessageTransport {
  private readonly client: twilio.Twilio;

  constructor(private readonly settings: TwilioSettings) {
    const httpClient = settings.apiBase === null ? undefined : new RebasedRequestClient(settings.apiBase);
    this.client = twilio(settings.accountSid, settings.authToken, { httpClient });
  }

  async deliver(message: OutgoingMessage): Promise<void> {
    await this.client.messages.create({
      to: internationalNumber(message.to, this.settings.countryCode),
      from: this.settings.from,
      body: message.text,
    });
  }
}

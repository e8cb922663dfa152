import { describe, expect, it } from 'vitest';
import {
  exampleTriggerBody,
  exampleTriggerQuery,
  maskedWebhookAddress,
  WEBHOOK_FAILURE_SAMPLE,
  WEBHOOK_SUCCESS_SAMPLE,
  webhookAddress,
  webhookSampleBody,
} from './samples.ts';

describe('the collaboration samples', () => {
  it('shows the trigger example filled, and a GET call on the guest URL', () => {
    expect(JSON.parse(exampleTriggerBody())).toEqual({ text: 'Finished: Write the report', date: '2026-04-01', time: '09:00', minutes: 120, achieved: 100 });
    expect(exampleTriggerQuery('https://hooks.example/done?x=1')).toBe(
      'https://hooks.example/done?x=1&work=Write+the+report&date=2026-04-01&time=09%3A00&duration=120&achievement=100',
    );
    expect(exampleTriggerQuery('not a url')).toMatch(/^https:\/\/example\.com\/hooks\/warden\?work=/);
  });

  it('builds the webhook body, without date and time for a jail that starts now', () => {
    expect(JSON.parse(webhookSampleBody({ date: '2026-05-02', time: '18:30', duration: 90, repeatType: 'weekly', work: 'Read' }))).toEqual({
      date: '2026-05-02',
      time: '18:30',
      duration: 90,
      repeatType: 'weekly',
      work: 'Read',
    });
    expect(JSON.parse(webhookSampleBody({ date: null, time: null, duration: 60, repeatType: 'none', work: 'Now' }))).toEqual({
      duration: 60,
      repeatType: 'none',
      work: 'Now',
    });
  });

  it('shows the address once in full, then masked, and the two answers', () => {
    expect(webhookAddress('https://warden.example', 'abcdEFGH')).toBe('https://warden.example/hooks/reservation/abcdEFGH');
    expect(maskedWebhookAddress('https://warden.example', 'EFGH')).toBe('https://warden.example/hooks/reservation/••••EFGH');
    expect(JSON.parse(WEBHOOK_SUCCESS_SAMPLE)).toEqual({ status: 'success', error: null });
    expect(JSON.parse(WEBHOOK_FAILURE_SAMPLE)).toEqual({ status: 'failed', error: 'token is invalid.' });
  });
});

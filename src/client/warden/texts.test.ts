import { describe, expect, it } from 'vitest';
import { browserLanguage, createConsoleI18n } from './i18n.ts';
import { texts } from './texts.ts';
import { formatDuration } from './format.ts';
import { newEventId } from './relay.ts';
import { eventIdSchema } from '../../shared/relay.ts';
import type { VideoPhase } from './signalling.ts';
import { ALERT_KINDS, JAIL_STATUSES, MOTION_KINDS } from '../../shared/jail-vocabulary.ts';

const placeholders = (text: string): string[] => [...text.matchAll(/\{\{\s*(\w+)/g)].map((match) => match[1] ?? '').sort();

describe('the console texts (namespace warden)', () => {
  it('has every key in both languages, non-empty, with the same placeholders', () => {
    expect(Object.keys(texts.ja).sort()).toEqual(Object.keys(texts.en).sort());
    for (const [key, english] of Object.entries(texts.en)) {
      const japanese = texts.ja[key as keyof typeof texts.ja];
      expect(english.trim(), `en:${key}`).not.toBe('');
      expect(japanese.trim(), `ja:${key}`).not.toBe('');
      expect(placeholders(japanese), `placeholders of ${key}`).toEqual(placeholders(english));
    }
  });

  it('names every status, alert, motion kind and video phase the console shows', () => {
    const shown = [
      ...JAIL_STATUSES.map((status) => `status_${status}`),
      // A card's seat (seatOf) may also be away.
      'status_away',
      ...ALERT_KINDS.map((kind) => `alert_${kind}`),
      ...MOTION_KINDS.map((kind) => `log_motion_${kind}`),
      ...(['idle', 'offering', 'connecting', 'live', 'ended', 'failed'] satisfies VideoPhase[]).map((phase) => `video_${phase}`),
    ];
    for (const key of shown) expect(Object.keys(texts.en), key).toContain(key);
  });

  it('translates in the browser language', () => {
    expect(browserLanguage(['ja-JP', 'en'])).toBe('ja');
    expect(browserLanguage(['fr', 'en-GB'])).toBe('en');
    expect(browserLanguage([])).toBe('en');
    expect(createConsoleI18n('ja').t('time_left', { time: '5:00' })).toBe('残り 5:00');
    expect(createConsoleI18n('en').t('sign_in')).toBe('Sign in');
    expect(createConsoleI18n('ja').t('idle_warning', { time: '1:59' })).toBe('しばらく操作がありません。あと1:59でログアウトします。');
    expect(createConsoleI18n('en').t('new_password_hint', { min: 8, max: 128 })).toBe('8 to 128 characters.');
  });

  it('counts in words that agree with the number', () => {
    const english = createConsoleI18n('en');
    const japanese = createConsoleI18n('ja');
    expect(english.t('alerts_count', { count: 1 })).toBe('1 alert in 20 minutes');
    expect(english.t('alerts_count', { count: 3 })).toBe('3 alerts in 20 minutes');
    expect(japanese.t('alerts_count', { count: 1 })).toBe('直近20分のアラート 1件');
    expect(japanese.t('alerts_count', { count: 3 })).toBe('直近20分のアラート 3件');
    expect(english.t('live_jails_count', { count: 0 })).toBe('0');
    expect(japanese.t('live_jails_count', { count: 0 })).toBe('0件');
  });
});

describe('helpers', () => {
  it('formats durations', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(-5_000)).toBe('0:00');
    expect(formatDuration(65_999)).toBe('1:05');
    expect(formatDuration(3_600_000 + 61_000)).toBe('1:01:01');
  });

  it('makes event ids the relay accepts, a fresh one each time', () => {
    const id = newEventId();
    expect(eventIdSchema.safeParse(id).success).toBe(true);
    expect(newEventId()).not.toBe(id);
  });
});

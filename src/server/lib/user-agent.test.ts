import { describe, expect, it } from 'vitest';
import { deviceOf } from './user-agent.ts';

describe('deviceOf', () => {
  it('names the browser and the system of common user agents', () => {
    const cases: [string, string | null, string | null][] = [
      ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36', 'Chrome', 'Android'],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
        'Safari',
        'iOS',
      ],
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox', 'Windows'],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
        'Microsoft Edge',
        'macOS',
      ],
      ['curl/8.5.0', null, null],
    ];
    for (const [userAgent, browser, os] of cases) expect(deviceOf(userAgent), userAgent).toEqual({ browser, os });
  });

  it('names nothing for a missing, empty or blank user agent, and reads only the start of a long one', () => {
    expect(deviceOf(undefined)).toEqual({ browser: null, os: null });
    expect(deviceOf('')).toEqual({ browser: null, os: null });
    expect(deviceOf('   ')).toEqual({ browser: null, os: null });
    expect(deviceOf(`Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0 ${'x'.repeat(100_000)}`)).toEqual({
      browser: 'Firefox',
      os: 'Windows',
    });
  });
});

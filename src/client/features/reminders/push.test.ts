import { describe, expect, it } from 'vitest';
import { browserAndSystem, pushSupport } from './push.ts';

describe('pushSupport', () => {
  it('sends an iPhone that has not installed the app to install it, and knows a browser without push', () => {
    expect(pushSupport({ hasPush: true, isIos: false, standalone: false })).toBe('available');
    expect(pushSupport({ hasPush: false, isIos: true, standalone: false })).toBe('needs-install');
    expect(pushSupport({ hasPush: true, isIos: true, standalone: true })).toBe('available');
    expect(pushSupport({ hasPush: false, isIos: false, standalone: false })).toBe('unsupported');
  });
});

describe('browserAndSystem', () => {
  it.each([
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36', 'Chrome', 'Android'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari',
      'iPhone',
    ],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0', 'Edge', 'Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox', 'Mac'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0 Safari/537.36', 'Chrome', 'Linux'],
  ])('names %s', (userAgent, browser, system) => {
    expect(browserAndSystem(userAgent)).toEqual({ browser, system });
  });
});

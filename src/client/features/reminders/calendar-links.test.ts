import { describe, expect, it } from 'vitest';
import { subscribeLinks } from './calendar-links.ts';

describe('subscribeLinks', () => {
  it('gives each calendar app the feed address in the form it takes', () => {
    const links = subscribeLinks('https://warden.example/calendar/abc_DEF-123.ics', 'Warden のジェイル');
    expect(links.apple).toBe('webcal://warden.example/calendar/abc_DEF-123.ics');
    expect(new URL(links.google).searchParams.get('cid')).toBe('webcal://warden.example/calendar/abc_DEF-123.ics');
    const outlook = new URL(links.outlook);
    expect(outlook.origin).toBe('https://outlook.live.com');
    expect(outlook.searchParams.get('url')).toBe('https://warden.example/calendar/abc_DEF-123.ics');
    expect(outlook.searchParams.get('name')).toBe('Warden のジェイル');
  });

  it('turns a plain http address (a server on a laptop) into webcal too', () => {
    expect(subscribeLinks('http://localhost:8080/calendar/t.ics', 'Warden jails').apple).toBe('webcal://localhost:8080/calendar/t.ics');
  });
});

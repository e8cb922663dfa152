import { desc } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { errorLogs } from '../db/schema/index.ts';
import { apiBlock, credentials, fail, signUp, succeed, useTestServer } from '../test/harness.ts';
import { ERROR_LOG_MAX_LENGTH } from './error-log.ts';

const server = useTestServer();

async function newestLog() {
  const [row] = await server.app.db.select().from(errorLogs).orderBy(desc(errorLogs.id)).limit(1);
  return row;
}

describe('/errorLog/create', () => {
  it('keeps the report with the signed-in guest', async () => {
    const guest = await signUp(server.app);
    const answer = await succeed(server.app, '/errorLog/create', { api: apiBlock(), guest: credentials(guest), errorLog: 'TypeError: x is undefined' });
    expect(answer).toEqual({ api: { status: 'success' } });
    expect(await newestLog()).toMatchObject({ guestId: guest.id, text: 'TypeError: x is undefined' });
  });

  it('takes the text as errorLog.text too, and from a signed-out client', async () => {
    await succeed(server.app, '/errorLog/create', { api: apiBlock(), guest: { id: null, token: null }, errorLog: { text: 'RangeError' } });
    expect(await newestLog()).toMatchObject({ guestId: null, text: 'RangeError' });
    await succeed(server.app, '/errorLog/create', { api: apiBlock(), errorLog: 'no guest block' });
    expect(await newestLog()).toMatchObject({ guestId: null, text: 'no guest block' });
  });

  it('bounds the length', async () => {
    await succeed(server.app, '/errorLog/create', { api: apiBlock(), errorLog: 'e'.repeat(ERROR_LOG_MAX_LENGTH) });
    expect(await fail(server.app, '/errorLog/create', { api: apiBlock(), errorLog: 'e'.repeat(ERROR_LOG_MAX_LENGTH + 1) })).toBe(
      'The request is invalid: errorLog.',
    );
    expect(await fail(server.app, '/errorLog/create', { api: apiBlock(), errorLog: '' })).toBe('The request is invalid: errorLog.');
  });

  it('limits reports from one address', async () => {
    const body = { api: apiBlock(), errorLog: 'flood' };
    for (let i = 0; i < 60; i += 1) await succeed(server.app, '/errorLog/create', body, { remoteAddress: '10.7.0.1' });
    expect(await fail(server.app, '/errorLog/create', body, { remoteAddress: '10.7.0.1' })).toMatch(/Too many attempts/);
  });
});

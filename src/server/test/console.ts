import type { FastifyInstance } from 'fastify';
import { runAdmin } from '../admin.ts';
import { apiBlock, succeed, type TestServer } from './harness.ts';
import { signInWarden, type SucceedingCall } from './wardens.ts';

/** The wardens of a test server, made and signed in as an operator and the console do it. */

export interface TestWarden {
  id: number;
  title: string;
  email: string;
  password: string;
}

let wardenCount = 0;

/** A warden made by `create-warden`, which prints the id on its first line and the password on its second. */
export async function createWarden(server: Pick<TestServer, 'app' | 'clock'>): Promise<TestWarden> {
  wardenCount += 1;
  const suffix = `${wardenCount}${Math.random().toString(36).slice(2, 8)}`;
  const title = `Warden ${suffix}`;
  const email = `warden-${suffix}@example.com`;
  const lines = await runAdmin(['create-warden', '--title', title, '--email', email], server.app.db, server.clock, server.app.config);
  const id = Number(/^warden (\d+)/.exec(lines[0] ?? '')?.[1]);
  const password = /: (\S+)$/.exec(lines[1] ?? '')?.[1];
  if (password === undefined || Number.isNaN(id)) throw new Error(`no warden in ${lines.join('\n')}`);
  return { id, title, email, password };
}

/** Successful calls through `inject`, from one network address. */
export function injectedCalls(app: FastifyInstance, remoteAddress: string): SucceedingCall {
  return (path, body) => succeed(app, path, { api: apiBlock(), ...body }, { remoteAddress });
}

/** A new warden signed in with an authenticator enrolled: the account, its secret and the console session's token. */
export async function signedInWarden(
  server: Pick<TestServer, 'app' | 'clock'>,
  remoteAddress = '10.20.9.1',
): Promise<TestWarden & { secret: string; token: string }> {
  const warden = await createWarden(server);
  const { token, secret } = await signInWarden(injectedCalls(server.app, remoteAddress), warden);
  return { ...warden, secret, token };
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isForbiddenAddress, parseAllowHosts, systemResolver, type Resolver } from './address-guard.ts';
import { callTrigger, type CallGuard } from './caller.ts';

/**
 * The address check (docs/collaboration.md): a listener on loopback counts
 * every connection; none of the internal targets may reach it, whatever the
 * encoding of the address, whatever a name resolves to.
 */

let watcher: Server;
let watchPort = 0;
let reached = 0;

beforeAll(async () => {
  watcher = createServer((_request, response) => response.end('reached'));
  watcher.on('connection', () => (reached += 1));
  await new Promise<void>((resolve) => watcher.listen(0, '127.0.0.1', resolve));
  watchPort = (watcher.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => watcher.close(resolve));
});

/** Names the tests resolve themselves: each to internal addresses, one with a public address first. */
const testResolver: Resolver = async (hostname) => {
  const table: Record<string, string[]> = {
    'loopback.test': ['127.0.0.1'],
    'private.test': ['10.1.2.3'],
    'metadata.test': ['169.254.169.254'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'ula.test': ['fd00::1'],
    'mixed.test': ['93.184.216.34', '127.0.0.1'],
    'six.test': ['::1'],
  };
  const addresses = table[hostname];
  if (addresses === undefined) return systemResolver(hostname);
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const guard: CallGuard = { allowHosts: new Set(), resolve: testResolver, timeoutMs: 2_000 };

function post(url: string, callGuard: CallGuard = guard) {
  return callTrigger({ method: 'POST', url, body: '{}', headers: { 'content-type': 'application/json' } }, callGuard);
}

describe('the address check', () => {
  const hosts = [
    // Loopback in every encoding a URL accepts.
    '127.0.0.1',
    '127.0.0.2',
    '127.255.255.254',
    '2130706433',
    '0x7f000001',
    '0x7f.0.0.1',
    '0177.0.0.1',
    '0177.0000.0000.0001',
    '127.1',
    '127.0.1',
    '017700000001',
    '[::1]',
    '[0:0:0:0:0:0:0:1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[::127.0.0.1]',
    '[0:0:0:0:0:ffff:7f00:1]',
    '[64:ff9b::7f00:1]',
    '[2002:7f00:1::]',
    // Unspecified, private, link-local and metadata, carrier-grade NAT.
    '0.0.0.0',
    '0',
    '[::]',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.0.1',
    '192.168.255.255',
    '169.254.169.254',
    '169.254.0.1',
    '0xa9fea9fe',
    '100.64.0.1',
    '100.127.255.254',
    '100.100.100.200',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '[::ffff:10.0.0.1]',
    '[::ffff:169.254.169.254]',
    // IPv6 unique local, link-local, site-local, multicast, metadata.
    '[fc00::1]',
    '[fd00::1]',
    '[fd00:ec2::254]',
    '[fe80::1]',
    '[febf::1]',
    '[fec0::1]',
    '[ff02::1]',
    // Names that resolve to internal addresses.
    'localhost',
    'loopback.test',
    'private.test',
    'metadata.test',
    'mapped.test',
    'ula.test',
    'mixed.test',
    'six.test',
  ];

  it(`reaches none of ${hosts.length} internal targets`, async () => {
    expect(hosts.length).toBeGreaterThanOrEqual(40);
    for (const host of hosts) {
      const outcome = await post(`http://${host}:${watchPort}/hook`);
      expect(outcome, host).toMatchObject({ ok: false, statusCode: null, error: 'the address is inside a private or reserved network' });
    }
    expect(reached).toBe(0);
  });

  it('checks again at connect time: a name that resolved to a public address, then to loopback, is not reached', async () => {
    let lookups = 0;
    const rebinding: Resolver = async () => [{ address: lookups++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    const outcome = await post(`http://rebind.test:${watchPort}/hook`, { ...guard, resolve: rebinding });
    expect(outcome).toMatchObject({ ok: false, error: 'the address is inside a private or reserved network' });
    expect(lookups).toBe(2);
    expect(reached).toBe(0);
  });

  it('follows no redirect, to an internal address or any other', async () => {
    const redirector = createServer((_request, response) => {
      response.writeHead(302, { location: `http://127.0.0.1:${watchPort}/hook` }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const port = (redirector.address() as AddressInfo).port;
      const outcome = await post(`http://127.0.0.1:${port}/`, { ...guard, allowHosts: new Set(['127.0.0.1']) });
      expect(outcome).toEqual({ ok: false, statusCode: 302, error: 'redirects are not followed' });
      expect(reached).toBe(0);
    } finally {
      await new Promise((resolve) => redirector.close(resolve));
    }
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const silent = createServer(() => {
      // Never answers.
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const started = Date.now();
      const outcome = await post(`http://127.0.0.1:${port}/`, { ...guard, allowHosts: new Set(['127.0.0.1']), timeoutMs: 300 });
      expect(outcome).toEqual({ ok: false, statusCode: null, error: 'no answer within 0.3 s' });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('lets the hosts of TRIGGER_ALLOW_HOSTS through, and only those', async () => {
    const allowHosts = parseAllowHosts(' 127.0.0.1 , [::1],Hooks.Example ');
    expect([...allowHosts]).toEqual(['127.0.0.1', '::1', 'hooks.example']);
    const outcome = await post(`http://127.0.0.1:${watchPort}/hook`, { ...guard, allowHosts });
    expect(outcome).toEqual({ ok: true, statusCode: 200 });
    expect(reached).toBe(1);
    reached = 0;
    expect(await post(`http://localhost:${watchPort}/hook`, { ...guard, allowHosts })).toMatchObject({ ok: false });
    expect(reached).toBe(0);
  });

  it('passes public addresses', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '100.63.255.255', '100.128.0.0', '172.32.0.1', '2606:4700::1111', '2a00:1450:4001::200e']) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });
});

import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * Which addresses a trigger may call (docs/collaboration.md, The address
 * check): none inside the server's networks. The check runs on every address
 * a name resolves to, when the guest saves the URL and again when the call
 * connects (the connection goes to the address that was checked).
 */

/** IPv4 ranges no trigger reaches: [first address, prefix length]. */
const FORBIDDEN_IPV4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network", 0.0.0.0
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (and cloud metadata such as 100.100.100.200)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

function ipv4Number(address: string): number {
  return address.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

function isForbiddenIpv4(address: string): boolean {
  const value = ipv4Number(address);
  return FORBIDDEN_IPV4.some(([first, prefix]) => {
    const size = 2 ** (32 - prefix);
    return Math.floor(value / size) === Math.floor(ipv4Number(first) / size);
  });
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail counts as two). */
function ipv6Groups(address: string): number[] {
  const unzoned = address.split('%')[0] ?? '';
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(unzoned);
  let text = unzoned;
  if (dotted?.[1] !== undefined) {
    const value = ipv4Number(dotted[1]);
    text = `${unzoned.slice(0, dotted.index)}${Math.floor(value / 65_536).toString(16)}:${(value % 65_536).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

function ipv4OfGroups(high: number, low: number): string {
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

function isForbiddenIpv6(address: string): boolean {
  const [g0 = 0, g1 = 0, g2 = 0] = ipv6Groups(address);
  // Only global unicast, 2000::/3: this refuses ::, ::1, IPv4-mapped and
  // -compatible forms (::ffff:127.0.0.1), NAT64 64:ff9b::/96, unique local
  // fc00::/7 (metadata fd00:ec2::254), link-local fe80::/10, site-local
  // fec0::/10 and multicast ff00::/8.
  if ((g0 & 0xe000) !== 0x2000) return true;
  if (g0 === 0x2002) return isForbiddenIpv4(ipv4OfGroups(g1, g2)); // 6to4 carries an IPv4 address
  if (g0 === 0x2001 && g1 === 0) return true; // Teredo tunnels reach arbitrary IPv4 hosts
  if (g0 === 0x2001 && g1 === 0x0db8) return true; // documentation
  return false;
}

/** Whether an IP address (4 or 6, as `net` or the resolver gives it) is one no trigger may reach. */
export function isForbiddenAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return isForbiddenIpv4(address);
  if (version === 6) return isForbiddenIpv6(address);
  return true;
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses; tests inject their own. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** Why a URL may not be called. */
export type GuardRefusal = 'forbidden_address' | 'unresolvable';

export class TriggerAddressRefused extends Error {
  constructor(readonly refusal: GuardRefusal) {
    super(refusal === 'forbidden_address' ? 'the address is inside a private or reserved network' : 'the host name does not resolve');
    this.name = 'TriggerAddressRefused';
  }
}

/** The host of a URL as WHATWG parsing normalized it (127.1 and 0x7f000001 are already 127.0.0.1), without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/** `TRIGGER_ALLOW_HOSTS`: host names or addresses exempt from the check (tests, self-hosting). */
export function parseAllowHosts(value: string | undefined): ReadonlySet<string> {
  return new Set(
    (value ?? '')
      .split(',')
      .map((host) =>
        host
          .trim()
          .replace(/^\[(.*)\]$/, '$1')
          .toLowerCase(),
      )
      .filter((host) => host !== ''),
  );
}

/**
 * The address to connect to for a host: the first that resolves, after
 * checking that none of them is forbidden (a name with one internal address
 * among public ones is refused as a whole). An allowed host resolves freely.
 */
export async function checkedAddress(host: string, allowHosts: ReadonlySet<string>, resolve: Resolver): Promise<ResolvedAddress> {
  const literal = isIP(host);
  if (literal !== 0) {
    if (!allowHosts.has(host) && isForbiddenAddress(host)) throw new TriggerAddressRefused('forbidden_address');
    return { address: host, family: literal };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new TriggerAddressRefused('unresolvable');
  }
  const first = addresses[0];
  if (first === undefined) throw new TriggerAddressRefused('unresolvable');
  if (!allowHosts.has(host) && addresses.some(({ address }) => isForbiddenAddress(address))) {
    throw new TriggerAddressRefused('forbidden_address');
  }
  return first;
}

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * The SSRF guard: webhook targets must not reach this machine, its private network or a cloud metadata
 * service. Checked at creation (the URL's host resolved) and again on every attempt, on the addresses the
 * connection really uses (a custom `lookup`), so a DNS answer that changes after creation is caught.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (AWS metadata fd00:ec2::254 included)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

export const FORBIDDEN_TARGET = 'The webhook address points to a private, loopback or link-local network';

/** The 16 bytes of an IPv6 address (zone id dropped, a trailing dotted IPv4 read), or null. */
function ipv6Bytes(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length > 1 && halves[1] ? halves[1].split(':') : [];
  const groups =
    halves.length > 1 ? [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail] : head;
  if (groups.length !== 8) return null;
  return groups.flatMap((group) => {
    const value = Number.parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

const v4 = (bytes: number[], at: number[]) => at.map((i) => bytes[i] ?? 0).join('.');
const zeros = (bytes: number[], from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
const startsWith = (bytes: number[], prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

/**
 * The IPv4 addresses an IPv6 address carries, by every form that can route to IPv4: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d, e.g. ::7f00:1), 6to4
 * (2002:AABB:CCDD::/48), NAT64 (64:ff9b::/96, and the local-use 64:ff9b:1::/48 at each of RFC 6052's
 * prefix lengths), and Teredo (2001:0::/32: its server, and its client XOR-obfuscated in the last 32 bits).
 */
export function embeddedIpv4(address: string): string[] {
  const bytes = ipv6Bytes(address);
  if (!bytes) return [];
  const last = [12, 13, 14, 15];
  if (zeros(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return [v4(bytes, last)];
  if (zeros(bytes, 0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(bytes, 10, 12)) {
    return [v4(bytes, last)];
  }
  if (zeros(bytes, 0, 12)) return [v4(bytes, last)];
  if (startsWith(bytes, [0x20, 0x02])) return [v4(bytes, [2, 3, 4, 5])];
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b]) && zeros(bytes, 4, 12)) return [v4(bytes, last)];
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 1])) {
    return [
      v4(bytes, [6, 7, 9, 10]), // /48
      v4(bytes, [7, 9, 10, 11]), // /56
      v4(bytes, [9, 10, 11, 12]), // /64
      v4(bytes, last), // /96
    ];
  }
  if (startsWith(bytes, [0x20, 0x01, 0, 0])) {
    const client = last.map((i) => (bytes[i] ?? 0) ^ 0xff).join('.');
    return [v4(bytes, [4, 5, 6, 7]), client];
  }
  return [];
}

/** True for addresses a webhook may never reach; an IPv6 address also by the IPv4 address it carries. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    if (blocked.check(address, 'ipv6')) return true;
    return embeddedIpv4(address).some((inner) => blocked.check(inner, 'ipv4'));
  }
  return true;
}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/** Resolves the URL's host; answers a reason when any address is forbidden (or the name does not resolve). */
export async function checkTarget(url: string): Promise<string | null> {
  const host = bare(new URL(url).hostname);
  if (isIP(host)) return isForbiddenAddress(host) ? FORBIDDEN_TARGET : null;
  try {
    const addresses = await dnsLookupAsync(host, { all: true, verbatim: true });
    if (addresses.length === 0) return 'The webhook host name does not resolve';
    return addresses.some((a) => isForbiddenAddress(a.address)) ? FORBIDDEN_TARGET : null;
  } catch {
    return 'The webhook host name does not resolve';
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for http.request that refuses forbidden answers (used on every attempt). */
export function guardedLookup(
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad || addresses.length === 0) {
      const refused = Object.assign(new Error(FORBIDDEN_TARGET), { code: 'EWEBHOOKFORBIDDEN' });
      return callback(refused, []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0] as LookupAddress;
    return callback(null, first.address, first.family);
  });
}

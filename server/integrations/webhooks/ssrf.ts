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
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local (AWS metadata fd00:ec2::254 included)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64 (can reach IPv4 private space)
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

export const FORBIDDEN_TARGET = 'The webhook address points to a private, loopback or link-local network';

/** True for addresses a webhook may never reach (IPv4-mapped IPv6 checked as IPv4). */
export function isForbiddenAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
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

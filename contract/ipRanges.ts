/**
 * IP allow-list entries: parsing, normalising and matching IPv4/IPv6 addresses and CIDR ranges.
 * Pure (ipaddr.js only), shared by the studio's form check and the server, so both apply the same rules.
 *
 * Rules: an entry is one address (`203.0.113.7`, `2001:db8::1`) or a range in CIDR notation
 * (`10.0.0.0/8`, `2001:db8::/32`). IPv4 must be four decimal parts (no `127.1`, no hex). A range must be
 * written with its network address (`10.0.0.1/8` is refused, naming `10.0.0.0/8`). IPv6 zone ids (`%eth0`)
 * are refused. An IPv4-mapped IPv6 entry (`::ffff:10.0.0.0/104`) is stored as its IPv4 form (`10.0.0.0/8`).
 * A client address in IPv4-mapped form (`::ffff:127.0.0.1`) matches IPv4 entries.
 */
import ipaddr from 'ipaddr.js';

export const MAX_ALLOWLIST_LABEL = 100;

export type RangeProblem =
  /** Nothing was entered. */
  | { kind: 'required' }
  /** Not an IPv4/IPv6 address or CIDR range. */
  | { kind: 'invalid' }
  /** The prefix length is outside 0–32 (IPv4) or 0–128 (IPv6). */
  | { kind: 'prefix'; max: number }
  /** A range written with host bits set: `network` is what was probably meant. */
  | { kind: 'hostBits'; network: string };

export interface IpRange {
  /** The normalised text stored and shown: `10.0.0.0/8`, `2001:db8::1`, `127.0.0.1`. */
  text: string;
  kind: 'ipv4' | 'ipv6';
  address: ipaddr.IPv4 | ipaddr.IPv6;
  prefix: number;
}

export type ParsedRange = { ok: true; range: IpRange } | { ok: false; problem: RangeProblem };

function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (text.includes('%')) return null;
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (text.includes(':') && ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  return null;
}

const addressText = (address: ipaddr.IPv4 | ipaddr.IPv6) =>
  address.kind() === 'ipv6' ? (address as ipaddr.IPv6).toRFC5952String() : address.toString();

/** Parses and normalises one entry as typed by an admin. */
export function parseRange(input: string): ParsedRange {
  const text = input.trim();
  if (text === '') return { ok: false, problem: { kind: 'required' } };
  const slash = text.indexOf('/');
  const addressPart = slash === -1 ? text : text.slice(0, slash);
  const prefixPart = slash === -1 ? null : text.slice(slash + 1);
  let address = parseAddress(addressPart);
  if (!address) return { ok: false, problem: { kind: 'invalid' } };
  let max = address.kind() === 'ipv4' ? 32 : 128;
  if (prefixPart !== null && !/^\d{1,3}$/.test(prefixPart))
    return { ok: false, problem: { kind: 'invalid' } };
  let prefix = prefixPart === null ? max : Number(prefixPart);
  if (prefix > max) return { ok: false, problem: { kind: 'prefix', max } };
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    address = (address as ipaddr.IPv6).toIPv4Address();
    prefix -= 96;
    max = 32;
  }
  const bytes = address.toByteArray();
  const network = bytes.map((byte, i) => {
    const bitsHere = Math.min(8, Math.max(0, prefix - i * 8));
    return byte & (0xff << (8 - bitsHere)) & 0xff;
  });
  const networkAddress = ipaddr.fromByteArray(network);
  if (bytes.some((byte, i) => byte !== network[i])) {
    return { ok: false, problem: { kind: 'hostBits', network: `${addressText(networkAddress)}/${prefix}` } };
  }
  const base = addressText(networkAddress);
  return {
    ok: true,
    range: {
      text: prefix === max && prefixPart === null ? base : `${base}/${prefix}`,
      kind: networkAddress.kind(),
      address: networkAddress,
      prefix,
    },
  };
}

/** The same range however it was written (`127.0.0.1` and `127.0.0.1/32` are one). */
export const rangeKey = (range: IpRange) => `${addressText(range.address)}/${range.prefix}`;

/** A client address (from the connection) as ipaddr parses it, IPv4-mapped IPv6 turned into IPv4. */
export function parseClientAddress(input: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const text = input.trim().replace(/%.*$/, '');
  if (!ipaddr.isValid(text)) return null;
  return ipaddr.process(text);
}

/** Whether `address` (a client address) lies in `range`. An address that cannot be parsed matches nothing. */
export function rangeContains(range: IpRange, address: string | ipaddr.IPv4 | ipaddr.IPv6): boolean {
  const client = typeof address === 'string' ? parseClientAddress(address) : address;
  if (!client || client.kind() !== range.kind) return false;
  return client.match(range.address, range.prefix);
}

/** An empty list allows every address; otherwise the address must lie in one of the ranges. */
export function allowedBy(ranges: readonly IpRange[], address: string): boolean {
  if (ranges.length === 0) return true;
  const client = parseClientAddress(address);
  if (!client) return false;
  return ranges.some((range) => rangeContains(range, client));
}

/** The English sentence for a problem (the server's 400 detail). */
export function rangeProblemText(input: string, problem: RangeProblem): string {
  switch (problem.kind) {
    case 'required':
      return 'address is required';
    case 'invalid':
      return `${input.trim()} is not an IPv4 or IPv6 address or CIDR range (e.g. 203.0.113.7, 10.0.0.0/8, 2001:db8::/32)`;
    case 'prefix':
      return `The prefix length of ${input.trim()} must be between 0 and ${problem.max}`;
    case 'hostBits':
      return `${input.trim()} is not the start of its range: write ${problem.network}`;
  }
}

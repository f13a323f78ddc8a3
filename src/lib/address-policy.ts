import { BlockList, isIP } from 'node:net';

/**
 * Which network addresses a server-side request may reach: the public internet, and of the rest
 * only what the operator allows. Refused unless allowed: unspecified, loopback, private, shared
 * (CGNAT, where clouds put metadata services such as 100.100.100.200), link-local (169.254.169.254,
 * the usual metadata address), multicast, reserved and documentation ranges, and the IPv6 forms
 * that embed an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo), so no spelling of a
 * private address gets through.
 */

const V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const V6: [string, number][] = [
  ['::', 96], // unspecified, loopback (::1) and the deprecated IPv4-compatible form
  ['::ffff:0:0', 96], // IPv4-mapped: refused as a whole, its IPv4 is judged on its own below
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

// Two lists: a BlockList matches an IPv4 address against its IPv6 rules as ::ffff:a.b.c.d, which
// the ::ffff:0:0/96 rule would then refuse whatever the address.
const FORBIDDEN_V4 = new BlockList();
const FORBIDDEN_V6 = new BlockList();
for (const [net, prefix] of V4) FORBIDDEN_V4.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of V6) FORBIDDEN_V6.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address an IPv4-mapped IPv6 address carries (`::ffff:127.0.0.1`, `::ffff:7f00:1`), else undefined. */
export function mappedIpv4(address: string): string | undefined {
  const match = /^(?:0{0,4}:){0,5}:?ffff:(.+)$/i.exec(address);
  if (!match) return undefined;
  const tail = match[1]!;
  if (isIP(tail) === 4) return tail;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(tail);
  if (!hex) return undefined;
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Whether an IP address (v4 or v6, as text) is outside the public internet. Anything not an address counts as outside. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  const mapped = family === 6 ? mappedIpv4(address) : undefined;
  if (mapped !== undefined) return isNonPublicAddress(mapped);
  return family === 4 ? FORBIDDEN_V4.check(address, 'ipv4') : FORBIDDEN_V6.check(address, 'ipv6');
}

/**
 * The operator's exceptions (KBQA_WORKFLOW_HTTP_ALLOW_HOSTS): host names, matched exactly or, as
 * `.example.com` / `*.example.com`, with their subdomains, and IP addresses or CIDR ranges.
 */
export type HostAllowList = { allowsName(host: string): boolean; allowsAddress(address: string): boolean };

export function parseHostAllowList(entries: readonly string[]): HostAllowList {
  const names = new Set<string>();
  const suffixes: string[] = [];
  const ranges = new BlockList();
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase().replace(/^\[([^\]]*)\]/, '$1');
    if (!entry) continue;
    const [net, prefix] = entry.split('/');
    const family = isIP(net!);
    if (family !== 0) {
      const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
      if (!Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128)) throw new Error(`${raw} is not an address range`);
      ranges.addSubnet(net!, bits, family === 4 ? 'ipv4' : 'ipv6');
    } else if (/^(\*?\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/.test(entry)) {
      if (entry.startsWith('*.') || entry.startsWith('.')) suffixes.push(entry.slice(entry.indexOf('.')));
      else names.add(entry.replace(/\.$/, ''));
    } else {
      throw new Error(`${raw} is neither a host name nor an address range`);
    }
  }
  return {
    allowsName: (host) => {
      const name = host.toLowerCase().replace(/\.$/, '');
      return names.has(name) || suffixes.some((suffix) => name.endsWith(suffix));
    },
    allowsAddress: (address) => {
      const family = isIP(address);
      if (family === 0) return false;
      const mapped = family === 6 ? mappedIpv4(address) : undefined;
      return mapped !== undefined ? ranges.check(mapped, 'ipv4') : ranges.check(address, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

export const NOTHING_ALLOWED: HostAllowList = { allowsName: () => false, allowsAddress: () => false };

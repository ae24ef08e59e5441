import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Addresses a push endpoint may never be on: everything that is not the public Internet.
 * Loopback, private (RFC 1918, IPv6 unique-local), link-local (with the cloud metadata address
 * 169.254.169.254), CGNAT (100.64/10), "this network", benchmarking, documentation, multicast,
 * reserved; and the IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4), which could
 * carry a private one.
 */
const NOT_PUBLIC_V4 = new BlockList();
// Two lists: Node's BlockList matches an IPv4 address against IPv4-mapped IPv6 rules too, so
// the mapped range (::ffff:0:0/96) in one list would refuse every IPv4 address.
const NOT_PUBLIC_V6 = new BlockList();
for (const [network, prefix] of [
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
] as const)
  NOT_PUBLIC_V4.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC_V6.addSubnet(network, prefix, 'ipv6');

/**
 * Whether `address` (an IP literal) is on the public Internet. Anything that is not a valid
 * IP address is not. IPv4-mapped IPv6 addresses are judged as what they carry (refused).
 *
 * @example isPublicAddress('93.184.216.34') // true; isPublicAddress('169.254.169.254') // false
 */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return !NOT_PUBLIC_V4.check(address, 'ipv4');
  if (isIPv6(address)) return !NOT_PUBLIC_V6.check(address.replace(/%.*$/, ''), 'ipv6');
  return false;
}

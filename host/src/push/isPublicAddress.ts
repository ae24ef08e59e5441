import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Global unicast (RFC 4291): the only IPv6 a push service is on. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
/**
 * The NAT64 well-known prefix (RFC 6052): an IPv6-only host behind DNS64 reaches an IPv4-only
 * push service through it, so it is judged by the IPv4 address it carries.
 */
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/**
 * Whether `address` (an IP literal) is on the public Internet: public unicast only, the rule a
 * push endpoint must meet (SSRF: the host must never be made to call into the LAN, itself or a
 * cloud metadata service).
 *
 * - IPv4: none of the IANA special-purpose ranges (ipaddr.js names them: private, loopback,
 *   link-local with 169.254.169.254, CGNAT, "this network", documentation, benchmarking, 6to4
 *   relays, AS112, AMT, multicast, reserved, broadcast).
 * - IPv6: inside 2000::/3 (so never the IPv4-compatible `::a.b.c.d`, SIIT `::ffff:0:a.b.c.d`,
 *   segment-routing 5f00::/16, unique-local, link-local, multicast, or whatever IANA assigns
 *   outside it later), and none of its special-purpose blocks: all of 2001::/23 (Teredo, which
 *   carries an obfuscated IPv4, benchmarking, ORCHID and the rest), documentation 2001:db8::/32
 *   and 3fff::/20, and 6to4 2002::/16 (it carries an IPv4 address, a private one as well).
 * - IPv4-mapped (`::ffff:a.b.c.d`) and NAT64 `64:ff9b::a.b.c.d` are judged as the IPv4 address
 *   they reach. The local-use NAT64 prefix 64:ff9b:1::/48 is not public.
 *
 * The range table is ipaddr.js's (kept up to date with the IANA registries); the allow-list of
 * 2000::/3 is ours, so a block it does not list yet still cannot pass. Anything that is not a
 * valid IP address is not public; a zone id (`%eth0`) is ignored.
 *
 * @example isPublicAddress('93.184.216.34') // true; isPublicAddress('169.254.169.254') // false
 */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return isPublicV4(ipaddr.IPv4.parse(address));
  const bare = address.replace(/%.*$/, '');
  if (!isIPv6(bare)) return false;
  const v6 = ipaddr.IPv6.parse(bare);
  if (v6.isIPv4MappedAddress() || v6.match(NAT64)) return isPublicV4(embeddedV4(v6));
  return v6.match(GLOBAL_UNICAST) && v6.range() === 'unicast';
}

function isPublicV4(v4: ipaddr.IPv4): boolean {
  return v4.range() === 'unicast';
}

/** The IPv4 address in the last 32 bits of an IPv6 one. */
function embeddedV4(v6: ipaddr.IPv6): ipaddr.IPv4 {
  const bytes = v6.toByteArray().slice(12);
  return new ipaddr.IPv4(bytes);
}

import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (without its zone), which `isIPv6` accepted. */
function groupsOf(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    // A trailing IPv4 part (`::ffff:192.168.1.20`) is two groups.
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const front = parse(head);
  if (tail === undefined) return front;
  const back = parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const hex4 = (group: number) => group.toString(16).padStart(4, '0');

/**
 * Who a failed guess (or a pairing) is counted against, from the client's address:
 * - IPv4: the address; all of 127.0.0.0/8 and `::1` together as `loopback` (a local user can
 *   pick any of them).
 * - IPv4-mapped IPv6 (`::ffff:a.b.c.d`, also written in hex): the IPv4 address it maps.
 * - IPv6: its /64, written expanded (`2001:0db8:0000:0000::/64`), so every spelling of one
 *   prefix is one key: a device can choose any address inside its prefix.
 * - Link-local IPv6 (fe80::/10): the whole address with its zone: neighbours on a link share
 *   no prefix worth the name, and the same address on two interfaces is two clients.
 * Anything else (no socket address) is its own key. The one place keys are made: whatever
 * supplies the client's address (the socket, a trusted proxy's header) passes it through here.
 *
 * @example
 * throttleKey('2001:db8::1%eth0') === throttleKey('2001:DB8:0:0:ffff::2') // '2001:0db8:0000:0000::/64'
 */
export function throttleKey(address: string): string {
  const zoneAt = address.indexOf('%');
  const bare = zoneAt < 0 ? address : address.slice(0, zoneAt);
  const zone = zoneAt < 0 ? '' : address.slice(zoneAt);
  if (isIPv4(bare)) return bare.startsWith('127.') ? 'loopback' : bare;
  if (!isIPv6(bare)) return address;
  const groups = groupsOf(bare.toLowerCase());
  const [g0 = 0, , , , , g5 = 0, g6 = 0, g7 = 0] = groups;
  const zeroTo = (end: number) => groups.slice(0, end).every((group) => group === 0);
  if (zeroTo(5) && g5 === 0xffff) {
    return throttleKey(`${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`);
  }
  if (zeroTo(7) && g7 === 1) return 'loopback';
  if ((g0 & 0xffc0) === 0xfe80) return `${groups.map(hex4).join(':')}${zone}`;
  return `${groups.slice(0, 4).map(hex4).join(':')}::/64`;
}

/**
 * Host values @hono/node-server cannot build a URL from (or builds one naming another host):
 * a port that is no number or out of range, user information, a space, a path, percent signs,
 * a second colon, text after an IPv6 literal. The first five end in something the host guard
 * alone would read as a name of this server. Shared by the unit test of `readableHost` and the
 * HTTP test that sends each to the action lane and to a Hono route.
 */
export const UNREADABLE_HOSTS = [
  '127.0.0.1:abc',
  'localhost:1@evil.example',
  'localhost:80 evil',
  '127.0.0.1:99999',
  '127.0.0.1:',
  '127.0.0.1/x',
  'user@localhost',
  '127.0.0.%31',
  'localhost:8080:80',
  '[::1]evil',
] as const;

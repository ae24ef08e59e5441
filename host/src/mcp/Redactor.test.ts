import { describe, expect, it } from 'vitest';
import { parseMcpConfig } from './mcpConfig';
import { Redactor } from './Redactor';

function redactorOf(server: unknown): Redactor {
  const [config] = parseMcpConfig(JSON.stringify({ mcpServers: { s: server } }), 'mcp.json');
  if (!config || 'invalid' in config) throw new Error('bad test config');
  return new Redactor(config);
}

describe('Redactor', () => {
  it('scrubs the values of env, never short ones', () => {
    const r = redactorOf({ command: 'x', env: { GITHUB_TOKEN: 'ghp_abc123456', DEBUG: '1' } });
    expect(r.scrub('auth failed for ghp_abc123456 (debug 1)')).toBe('auth failed for [redacted] (debug 1)');
  });

  it('scrubs header values, the token alone, and URL credentials and query values', () => {
    const r = redactorOf({
      url: 'https://user:pa55word@mcp.example.com/mcp?key=qk%2Fvalue9',
      headers: { Authorization: 'Bearer tok-123456' },
    });
    expect(r.scrub('sent Bearer tok-123456; token tok-123456')).toBe('sent [redacted]; token [redacted]');
    expect(r.scrub('GET https://user:pa55word@mcp.example.com/mcp?key=qk%2Fvalue9')).toBe(
      'GET https://[redacted]:[redacted]@mcp.example.com/mcp?key=[redacted]',
    );
    expect(r.scrub('decoded qk/value9')).toBe('decoded [redacted]');
  });

  it('puts the text on one line and cuts it', () => {
    const r = redactorOf({ command: 'x' });
    expect(r.scrub('a\n  b')).toBe('a b');
    expect(r.scrub('x'.repeat(600))).toHaveLength(500);
  });
});

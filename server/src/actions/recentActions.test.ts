import { describe, expect, it } from 'vitest';
import type { Outcome } from './Outcome';
import { MAX_REMEMBERED, MAX_REMEMBERED_PER_CLIENT, RecentActions } from './recentActions';

const finished: Promise<Outcome> = Promise.resolve({ ok: false, error: new Error('x') });
const entry = (client: string, at = 0, outcome = finished) => ({ at, action: 'send', client, outcome });
/** Lets the outcomes' callbacks run, as they would between requests. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Remembers `count` finished ids for `client`, letting each settle. */
async function flood(recent: RecentActions, client: string, count: number, prefix = client) {
  for (let i = 0; i < count; i++) {
    recent.remember(`${prefix}-${i}`, entry(client));
    await settle();
  }
}

describe('RecentActions', () => {
  it('a client that floods forgets its own oldest ids, not those of another client', async () => {
    const recent = new RecentActions();
    recent.remember('phone-1', entry('192.168.1.20'));
    await flood(recent, '192.168.1.99', MAX_REMEMBERED_PER_CLIENT + 1, 'flood');
    expect(recent.get('phone-1')).toBeDefined();
    expect(recent.get('flood-0')).toBeUndefined();
    expect(recent.get('flood-1')).toBeDefined();
    expect(recent.size).toBe(MAX_REMEMBERED_PER_CLIENT + 1);
  });

  it('past the overall bound, the client holding the most loses its oldest: a flood from many addresses spares a phone', async () => {
    const recent = new RecentActions();
    for (let i = 0; i < 3; i++) recent.remember(`phone-${i}`, entry('192.168.1.20'));
    const addresses = Math.ceil(MAX_REMEMBERED / MAX_REMEMBERED_PER_CLIENT) + 1;
    for (let a = 0; a < addresses; a++) await flood(recent, `10.0.0.${a}`, MAX_REMEMBERED_PER_CLIENT);
    expect(recent.size).toBe(MAX_REMEMBERED);
    for (let i = 0; i < 3; i++) expect(recent.get(`phone-${i}`)).toBeDefined();
    expect(recent.get(`10.0.0.${addresses - 1}-${MAX_REMEMBERED_PER_CLIENT - 1}`)).toBeDefined();
  });

  it('never forgets an action that is still running, so a duplicate meanwhile shares its outcome', async () => {
    const recent = new RecentActions();
    let finish: (outcome: Outcome) => void = () => undefined;
    const running = new Promise<Outcome>((resolve) => {
      finish = resolve;
    });
    recent.remember('slow', entry('192.168.1.99', 0, running));
    await flood(recent, '192.168.1.99', MAX_REMEMBERED_PER_CLIENT + 5, 'flood');
    expect(recent.get('slow')?.outcome).toBe(running);
    recent.forgetOlderThan(1);
    expect(recent.get('slow')).toBeDefined();
    finish({ ok: false, error: new Error('done') });
    await settle();
    recent.forgetOlderThan(1);
    expect(recent.get('slow')).toBeUndefined();
  });

  it('forgets ids first seen at the horizon or before', async () => {
    const recent = new RecentActions();
    recent.remember('old', entry('a', 100));
    recent.remember('edge', entry('b', 200));
    recent.remember('new', entry('a', 300));
    await settle();
    recent.forgetOlderThan(200);
    expect([recent.get('old'), recent.get('edge')]).toEqual([undefined, undefined]);
    expect(recent.get('new')).toBeDefined();
  });
});

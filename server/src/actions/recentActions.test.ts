import { describe, expect, it } from 'vitest';
import { MAX_REMEMBERED, MAX_REMEMBERED_PER_CLIENT, type Outcome, RecentActions } from './recentActions';

const outcome: Promise<Outcome> = Promise.resolve({ ok: false, error: new Error('x') });
const entry = (client: string, at = 0) => ({ at, action: 'send', client, outcome });

describe('RecentActions', () => {
  it('a client that floods forgets its own oldest ids, not those of another client', () => {
    const recent = new RecentActions();
    recent.remember('phone-1', entry('192.168.1.20'));
    for (let i = 0; i <= MAX_REMEMBERED_PER_CLIENT; i++) recent.remember(`flood-${i}`, entry('192.168.1.99'));
    expect(recent.get('phone-1')).toBeDefined();
    expect(recent.get('flood-0')).toBeUndefined();
    expect(recent.get('flood-1')).toBeDefined();
    expect(recent.get(`flood-${MAX_REMEMBERED_PER_CLIENT}`)).toBeDefined();
    expect(recent.size).toBe(MAX_REMEMBERED_PER_CLIENT + 1);
  });

  it('holds at most MAX_REMEMBERED ids in all, forgetting the oldest', () => {
    const recent = new RecentActions();
    const clients = Math.ceil(MAX_REMEMBERED / MAX_REMEMBERED_PER_CLIENT) + 1;
    for (let c = 0; c < clients; c++) {
      for (let i = 0; i < MAX_REMEMBERED_PER_CLIENT; i++) recent.remember(`${c}-${i}`, entry(`client-${c}`));
    }
    expect(recent.size).toBe(MAX_REMEMBERED);
    expect(recent.get('0-0')).toBeUndefined();
    expect(recent.get(`${clients - 1}-${MAX_REMEMBERED_PER_CLIENT - 1}`)).toBeDefined();
  });

  it('forgets ids first seen at the horizon or before', () => {
    const recent = new RecentActions();
    recent.remember('old', entry('a', 100));
    recent.remember('edge', entry('b', 200));
    recent.remember('new', entry('a', 300));
    recent.forgetOlderThan(200);
    expect([recent.get('old'), recent.get('edge')]).toEqual([undefined, undefined]);
    expect(recent.get('new')).toBeDefined();
    // A forgotten id no longer counts against its client.
    for (let i = 0; i < MAX_REMEMBERED_PER_CLIENT - 1; i++) recent.remember(`a-${i}`, entry('a', 400));
    expect(recent.get('new')).toBeDefined();
  });
});

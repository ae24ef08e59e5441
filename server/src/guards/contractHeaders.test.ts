import { contract } from '@webbridge/contract';
import { describe, expect, it } from 'vitest';
import { isControlOnly, isProtected, ROUTE_BY_PATH } from './contractHeaders';

describe('what the front door derives from the contract', () => {
  const names = (keep: (route: (typeof contract)[keyof typeof contract]) => boolean) =>
    Object.entries(contract)
      .filter(([, route]) => keep(route))
      .map(([name]) => name)
      .sort();

  it('asks a code of state, events, action, upload and the device routes, and of nothing else', () => {
    expect(names(isProtected)).toEqual(['action', 'devices', 'events', 'forgetDevice', 'state', 'upload']);
  });

  it('refuses the view code on action and upload only (forgetDevice limits a watcher to itself)', () => {
    expect(names((route) => isProtected(route) && isControlOnly(route))).toEqual(['action', 'upload']);
  });

  it('finds every route by its path', () => {
    for (const route of Object.values(contract)) expect(ROUTE_BY_PATH.get(route.path)).toBe(route);
    expect(ROUTE_BY_PATH.size).toBe(Object.keys(contract).length);
  });
});

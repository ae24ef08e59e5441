import type { AppRoute } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { headersOf, isPublicRoute } from './headers';
import { contract } from './router';

describe('request headers in the contract', () => {
  it('marks exactly the locale, push-decision, media and pair routes public; every other route declares authorization', () => {
    const routes = Object.entries(contract);
    expect(routes.filter(([, route]) => isPublicRoute(route)).map(([name]) => name)).toEqual([
      'locale',
      'pushDecide',
      'media',
      'pair',
    ]);
    for (const [name, route] of routes) {
      expect('authorization' in headersOf(route), name).toBe(!isPublicRoute(route));
    }
  });

  it('gives every route its own path', () => {
    const paths = Object.values(contract).map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('refuses header declarations that would slip past the checks', () => {
    const route = (headers: unknown) =>
      ({ method: 'GET', path: '/x', headers, responses: { 200: z.string() } }) as unknown as AppRoute;
    // A capital letter: Node hands header names over in lower case, so it would never match.
    expect(() => headersOf(route(z.object({ Authorization: z.string() })))).toThrow(/lower-case/);
    // Not one z.object: its names cannot be listed for the checks.
    expect(() => headersOf(route(z.object({ authorization: z.string() }).refine(() => true)))).toThrow(
      /z.object/,
    );
    // A name the protocol has no refusal for.
    expect(() => headersOf(route(z.object({ 'x-other': z.string() })))).toThrow(/DeclaredHeader/);
    expect(headersOf(route(undefined))).toEqual({});
  });
});

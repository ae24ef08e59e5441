import type { AppRoute } from '@ts-rest/core';
import { contract, type DeclaredHeader, ERROR_STATUS, HEADER_REFUSALS, headersOf } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../support/rawHttp';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

/**
 * The headers each route declares in the contract are the headers the server checks, at run
 * time: for every route, leaving out each required header, or sending a value its schema
 * refuses, is answered with the code the contract names for that header. The rules come from
 * the contract, so a route or header added there is covered here without a new test.
 */
describe('request headers are checked against the contract', () => {
  let h: TestHost;
  beforeAll(async () => {
    h = await startTestHost();
  });
  afterAll(() => h.close(true));

  /** A request the route accepts, as header lines and a body, before one header is changed. */
  const valid = (route: AppRoute): { headers: Record<string, string>; target: string; body: string } => {
    const headers: Record<string, string> = { Host: `127.0.0.1:${h.port}`, Connection: 'close' };
    if ('authorization' in headersOf(route)) headers.Authorization = `Bearer ${TEST_CODE}`;
    if (route === contract.action) {
      const body = JSON.stringify({ action: 'updateSettings', settings: {} });
      return {
        headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(body.length) },
        target: route.path,
        body,
      };
    }
    if (route === contract.upload) {
      return {
        headers: { ...headers, 'Content-Type': 'text/plain', 'Content-Length': '5' },
        target: `${route.path}?name=a.txt`,
        body: 'hello',
      };
    }
    return { headers, target: route.path, body: '' };
  };

  const send = (route: AppRoute, headers: Record<string, string>, target: string, body: string) =>
    rawRequest(
      h.port,
      [`${route.method} ${target} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)],
      body,
    );

  const declared = Object.entries(contract).flatMap(([name, route]: [string, AppRoute]) =>
    Object.entries(headersOf(route)).map(([header, schema]) => ({
      name,
      route,
      header: header as DeclaredHeader,
      schema,
    })),
  );

  it('declares the headers the protocol documents', () => {
    expect(declared.map(({ name, header }) => `${name} ${header}`).sort()).toEqual([
      'action authorization',
      'action content-type',
      'devices authorization',
      'events authorization',
      'events last-event-id',
      'forgetDevice authorization',
      'forgetDevice content-type',
      'pair content-type',
      'pushDecide content-type',
      'state authorization',
      'upload authorization',
      'upload content-length',
      'upload content-type',
    ]);
  });

  it('accepts each route’s valid request (the baseline the cases below change)', async () => {
    for (const route of [contract.state, contract.action, contract.upload]) {
      const { headers, target, body } = valid(route);
      const response = await send(route, headers, target, body);
      expect(response.status, `${route.method} ${route.path}`).toBeLessThan(300);
    }
  });

  for (const { name, route, header, schema } of declared) {
    // Content-Length is framing: without it the body is not one; the raw request keeps the
    // body out so the connection stays in step.
    const required = !schema.isOptional();
    if (required) {
      it(`${name}: without ${header} → ${HEADER_REFUSALS[header]}`, async () => {
        const { headers, target } = valid(route);
        const kept = Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== header));
        const response = await send(
          route,
          header === 'content-length' ? kept : { ...kept, 'Content-Length': '0' },
          target,
          '',
        );
        const code = HEADER_REFUSALS[header];
        expect(response.status).toBe(ERROR_STATUS[code]);
        expect(JSON.parse(response.body).code).toBe(code);
      });
    }
    // Content-Length: any value Node's parser takes is digits, which the contract takes too.
    if (required && header === 'content-type') {
      it(`${name}: a ${header} its schema refuses → ${HEADER_REFUSALS[header]}`, async () => {
        const { headers, target, body } = valid(route);
        const wrong = 'application/jsonx';
        expect(schema.safeParse(wrong).success).toBe(false);
        const response = await send(route, { ...headers, 'Content-Type': wrong }, target, body);
        const code = HEADER_REFUSALS[header];
        expect(response.status).toBe(ERROR_STATUS[code]);
        expect(JSON.parse(response.body).code).toBe(code);
      });
    }
  }

  it('takes any run of digits as an upload size, as RFC 9110 does (leading zeros, past the limit → 413)', async () => {
    const { headers, target } = valid(contract.upload);
    const padded = await send(
      contract.upload,
      { ...headers, 'Content-Length': '000000000000000005' },
      target,
      'hello',
    );
    expect(padded.status).toBe(201);
    const huge = await send(
      contract.upload,
      { ...headers, 'Content-Length': '99999999999999999' },
      target,
      '',
    );
    expect(huge.status).toBe(413);
  });

  it('a malformed Bearer header is 401, as a missing one', async () => {
    const { headers, target } = valid(contract.state);
    for (const authorization of ['Basic abc', `Bearer ${TEST_CODE}, Bearer other`, 'Bearer']) {
      const response = await send(contract.state, { ...headers, Authorization: authorization }, target, '');
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
    }
  });
});

import { contract } from '@webbridge/contract';
import { http, type RequestHandler } from 'msw';
import type { MockBackend } from './mockBackend';

/** One MSW handler per route of the contract, each answered by the mock backend. */
export function mockHandlers(backend: MockBackend): RequestHandler[] {
  return Object.values(contract).map((route) => {
    const method = route.method === 'GET' ? http.get : http.post;
    return method(route.path, ({ request }) => backend.handle(request));
  });
}

import { ProtocolError } from '@webbridge/contract';
import { describe, expect, it } from 'vitest';
import { MemoryFiles } from './MemoryFiles';

const contextOf = (body: string) => ({
  req: { raw: new Request('http://localhost/', { method: 'POST', body }) },
});

/** The problem code `promise` rejects with. */
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof ProtocolError ? error.code : String(error)),
  );

describe('MemoryFiles keeps uploads as the disk does', () => {
  it('keeps exactly the declared bytes, serves them back, and forgets them when removed', async () => {
    const files = new MemoryFiles();
    const file = await files.receive(contextOf('hello'), 5, 100);
    expect(file.size).toBe(5);
    const opened = await files.open(file.path);
    expect(opened?.size).toBe(5);
    expect(await new Response(opened?.body()).text()).toBe('hello');
    await files.remove(file.path);
    expect(await files.open(file.path)).toBeUndefined();
  });

  it('refuses a body over the declared size or the limit (413) and one that ends short (400), keeping nothing', async () => {
    const files = new MemoryFiles();
    expect(await codeOf(files.receive(contextOf('hello'), 4, 100))).toBe('payload_too_large');
    expect(await codeOf(files.receive(contextOf('hello'), 5, 4))).toBe('payload_too_large');
    expect(await codeOf(files.receive(contextOf('hell'), 5, 100))).toBe('invalid_request');
    expect(await files.open('memory:1')).toBeUndefined();
  });
});

import { contract, ProtocolError } from '@webbridge/contract';
import { describe, expect, it } from 'vitest';
import type { RequestHead } from '../guards/RequestHead';
import { contractBody } from './contractBody';

function head(contentLength?: number): RequestHead {
  const headers = contentLength === undefined ? {} : { 'content-length': String(contentLength) };
  return { headers, rawHeaders: [], complete: true };
}

/** The refusal `run` throws, as a status, code, detail and whether it lists issues. */
async function refusal(run: Promise<unknown>) {
  const error = await run.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ProtocolError)) throw new Error(`expected a ProtocolError, got ${String(error)}`);
  return { status: error.status, code: error.code, detail: error.message, issues: 'issues' in error.extras };
}

describe('contractBody', () => {
  const body = contractBody(contract.forgetDevice.body, { max: 64, detail: 'Send { deviceId }.' });
  const text = (value: string) => () => Promise.resolve(value);

  it('gives the body the route’s schema accepts, typed by it', async () => {
    const { deviceId } = await body(head(), text('{"deviceId":"d1"}'));
    expect(deviceId).toBe('d1');
  });

  it('refuses a declared length over the limit before reading (413)', async () => {
    let read = false;
    const never = () => {
      read = true;
      return Promise.resolve('{}');
    };
    expect(await refusal(body(head(65), never))).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(read).toBe(false);
  });

  it('refuses a body longer than the limit in UTF-8 bytes, whatever was declared (413)', async () => {
    // 22 characters of 3 bytes each: 66 bytes in 22 UTF-16 units.
    const long = `{"deviceId":"${'€'.repeat(22)}"}`;
    expect(await refusal(body(head(), text(long)))).toMatchObject({ status: 413 });
  });

  it('refuses what is not JSON (400, no issues) and what the schema refuses (400, its detail and issues)', async () => {
    expect(await refusal(body(head(), text('{')))).toEqual({
      status: 400,
      code: 'invalid_request',
      detail: 'The body is not valid JSON.',
      issues: false,
    });
    expect(await refusal(body(head(), text('{"device":"d1"}')))).toEqual({
      status: 400,
      code: 'invalid_request',
      detail: 'Send { deviceId }.',
      issues: true,
    });
  });

  it('says the request does not match the protocol when the route names no detail', async () => {
    const action = contractBody(contract.action.body, { max: 1024 });
    expect(await refusal(action(head(), text('{"action":"nothing"}')))).toMatchObject({
      detail: 'The request does not match the protocol.',
      issues: true,
    });
  });
});

import type { HostAttachment } from '@webbridge/contract';
import { parseJsonSafely, uploadResponseSchema } from '@webbridge/contract';
import { BridgeClientError } from './BridgeClientError';
import { errorFromFailure, errorFromResponse, type HeaderReader } from './errorFromResponse';

/**
 * How uploads travel:
 * - `auto`: XMLHttpRequest where it exists (browsers), because only it reports upload progress
 *   as bytes leave; fetch elsewhere (Node), the client's own `fetch` when one was given;
 * - `fetch`: always the client's `fetch` (or the global one); progress is then reported once,
 *   at the end. For a custom fetch that must see every request (a proxy, a test double).
 */
export type UploadTransport = 'auto' | 'fetch';

/** Options of an upload. */
export interface UploadOptions {
  /**
   * Called as bytes leave: `loaded` of `total` bytes. Over fetch (see {@link UploadTransport}),
   * called once at the end.
   */
  readonly onProgress?: (loaded: number, total: number) => void;
  /** Aborts the upload; the promise rejects with code `aborted`. */
  readonly signal?: AbortSignal;
  /**
   * The conversation the file is for (the one the person sees); absent: whichever is current
   * when the upload completes. An id the host does not know: `not_found`, and no file is kept.
   */
  readonly conversationId?: string;
}

/** What {@link uploadFile} needs besides the file. */
export interface UploadRequest {
  readonly url: string;
  readonly authorization: string;
  readonly file: Blob;
  /** The fetch to use when the upload goes over fetch; absent: the global one. */
  readonly fetch: typeof fetch | undefined;
  /** @default 'auto' */
  readonly transport?: UploadTransport;
}

/** The part of XMLHttpRequest used here, declared so the SDK also type-checks without DOM. */
interface Xhr {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: Blob): void;
  abort(): void;
  readonly status: number;
  readonly responseText: string;
  getResponseHeader(name: string): string | null;
  readonly upload: { onprogress: ((event: { loaded: number; total: number }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}

/**
 * POSTs one file as the raw body with its own Content-Type and returns the new pending
 * attachment. The body is a Blob, so its length is known and it is never sent chunked (the
 * server refuses chunked uploads).
 */
export async function uploadFile(request: UploadRequest, options: UploadOptions): Promise<HostAttachment> {
  const { signal } = options;
  if (signal?.aborted) throw errorFromFailure(signal.reason, signal);
  const Xhr = (globalThis as unknown as { XMLHttpRequest?: new () => Xhr }).XMLHttpRequest;
  const answer =
    (request.transport ?? 'auto') === 'auto' && Xhr !== undefined
      ? await sendWithXhr(Xhr, request, options)
      : await sendWithFetch(
          request.fetch ?? ((input, init) => globalThis.fetch(input, init)),
          request,
          options,
        );
  let body: unknown = answer.text;
  if ((answer.contentType ?? '').includes('json')) {
    try {
      body = parseJsonSafely(answer.text);
    } catch (cause) {
      throw new BridgeClientError(
        { code: 'bad_response', status: answer.status, detail: 'invalid JSON' },
        { cause },
      );
    }
  }
  if (answer.status !== 201) throw errorFromResponse(answer.status, body, answer.headers);
  const parsed = uploadResponseSchema.safeParse(body);
  if (!parsed.success) {
    throw new BridgeClientError({ code: 'bad_response', status: 201, detail: 'unexpected upload answer' });
  }
  options.onProgress?.(request.file.size, request.file.size);
  return parsed.data.attachment;
}

interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
  readonly headers: HeaderReader;
}

function contentTypeOf(file: Blob): string {
  return file.type === '' ? 'application/octet-stream' : file.type;
}

async function sendWithFetch(fetchFn: typeof fetch, request: UploadRequest, options: UploadOptions) {
  const init: RequestInit = {
    method: 'POST',
    headers: { Authorization: request.authorization, 'Content-Type': contentTypeOf(request.file) },
    body: request.file,
  };
  if (options.signal !== undefined) init.signal = options.signal;
  try {
    const response = await fetchFn(request.url, init);
    const text = await response.text();
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      text,
      headers: response.headers,
    } satisfies Answer;
  } catch (error) {
    throw errorFromFailure(error, options.signal);
  }
}

function sendWithXhr(Xhr: new () => Xhr, request: UploadRequest, options: UploadOptions): Promise<Answer> {
  const { signal, onProgress } = options;
  return new Promise((resolve, reject) => {
    const xhr = new Xhr();
    const onAbort = () => xhr.abort();
    const settle = () => signal?.removeEventListener('abort', onAbort);
    xhr.open('POST', request.url);
    xhr.setRequestHeader('Authorization', request.authorization);
    xhr.setRequestHeader('Content-Type', contentTypeOf(request.file));
    if (onProgress !== undefined) xhr.upload.onprogress = (event) => onProgress(event.loaded, event.total);
    xhr.onload = () => {
      settle();
      resolve({
        status: xhr.status,
        contentType: xhr.getResponseHeader('content-type'),
        text: xhr.responseText,
        headers: { get: (name) => xhr.getResponseHeader(name) },
      });
    };
    xhr.onerror = () => {
      settle();
      reject(errorFromFailure(new Error('upload failed'), signal));
    };
    xhr.onabort = () => {
      settle();
      reject(errorFromFailure(signal?.reason, signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(request.file);
  });
}

/** Test helper: a scripted XMLHttpRequest installed on globalThis. Not exported from the package. */

/** One request the fake saw. */
export interface XhrRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: Blob;
}

/** How the fake answers: status, headers, body text; progress steps are reported before it. */
export interface XhrAnswer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body: string;
  /** `loaded` values reported through `upload.onprogress` before the answer. */
  readonly progress?: readonly number[];
}

/**
 * Replaces globalThis.XMLHttpRequest with a fake that answers every request with `answer`
 * (asynchronously, as a real one does). Returns the requests seen and a restore function.
 */
export function installFakeXhr(answer: XhrAnswer): { requests: XhrRequest[]; restore: () => void } {
  const requests: XhrRequest[] = [];
  const had = 'XMLHttpRequest' in globalThis;
  const original = (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest;

  class FakeXhr {
    status = 0;
    responseText = '';
    readonly upload: { onprogress: ((event: { loaded: number; total: number }) => void) | null } = {
      onprogress: null,
    };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private method = '';
    private url = '';
    private readonly headers: Record<string, string> = {};
    private aborted = false;

    open(method: string, url: string): void {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string): void {
      this.headers[name.toLowerCase()] = value;
    }
    getResponseHeader(name: string): string | null {
      const wanted = name.toLowerCase();
      for (const [key, value] of Object.entries(answer.headers ?? {}))
        if (key.toLowerCase() === wanted) return value;
      return null;
    }
    abort(): void {
      if (this.aborted) return;
      this.aborted = true;
      queueMicrotask(() => this.onabort?.());
    }
    send(body: Blob): void {
      requests.push({ method: this.method, url: this.url, headers: { ...this.headers }, body });
      setTimeout(() => {
        if (this.aborted) return;
        for (const loaded of answer.progress ?? []) this.upload.onprogress?.({ loaded, total: body.size });
        this.status = answer.status;
        this.responseText = answer.body;
        this.onload?.();
      }, 1);
    }
  }

  (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest = FakeXhr;
  return {
    requests,
    restore() {
      if (had) (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest = original;
      else delete (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest;
    },
  };
}

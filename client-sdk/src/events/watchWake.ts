/**
 * Where the signals that a page woke up come from: a browser's `window` and `document` (the
 * default), or fakes in tests. Either may be absent (a worker, Node).
 */
export interface WakeSources {
  readonly window?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | undefined;
  readonly document?:
    | (Pick<EventTarget, 'addEventListener' | 'removeEventListener'> & {
        readonly visibilityState?: string;
      })
    | undefined;
}

/** What {@link watchWake} reports. */
export interface WakeHandlers {
  /** The page may have been asleep, or the network is back: check the stream now. */
  readonly onWake: () => void;
  /** The browser says the network is gone (`offline`). */
  readonly onOffline: () => void;
}

/** The page's own window and document, when there are any. */
export function browserWakeSources(): WakeSources {
  const g = globalThis as { window?: WakeSources['window']; document?: WakeSources['document'] };
  return { window: g.window, document: g.document };
}

/**
 * Listens for the moments a phone's page comes back: `visibilitychange` to visible,
 * `pageshow` (back from the back/forward cache), `online`, `focus`, and the Page Lifecycle
 * `resume` (after the browser froze the tab). Timers of a frozen or background page run late or
 * not at all, so these events, not a timer, are what tell the page its stream may be dead.
 * Returns the function that stops listening.
 *
 * @example
 * ```ts
 * const stop = watchWake(browserWakeSources(), { onWake: () => connection.check(), onOffline });
 * ```
 */
export function watchWake(sources: WakeSources, handlers: WakeHandlers): () => void {
  const { window: win, document: doc } = sources;
  const wake = () => handlers.onWake();
  const visible = () => {
    if (doc?.visibilityState === undefined || doc.visibilityState === 'visible') handlers.onWake();
  };
  const offline = () => handlers.onOffline();
  const windowEvents: [string, () => void][] = [
    ['pageshow', wake],
    ['online', wake],
    ['focus', wake],
    ['offline', offline],
  ];
  const documentEvents: [string, () => void][] = [
    ['visibilitychange', visible],
    ['resume', wake],
  ];
  for (const [name, listener] of windowEvents) win?.addEventListener(name, listener);
  for (const [name, listener] of documentEvents) doc?.addEventListener(name, listener);
  return () => {
    for (const [name, listener] of windowEvents) win?.removeEventListener(name, listener);
    for (const [name, listener] of documentEvents) doc?.removeEventListener(name, listener);
  };
}

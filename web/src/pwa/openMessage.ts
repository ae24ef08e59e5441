/** Where a tapped notification points: an approval, a conversation. */
export interface OpenTarget {
  readonly approval?: string | undefined;
  readonly conversation?: string | undefined;
}

/** What the service worker posts to an open page when a notification is tapped. */
export interface OpenMessage extends OpenTarget {
  readonly type: typeof OPEN_MESSAGE;
}

/** The `type` of an {@link OpenMessage}. */
export const OPEN_MESSAGE = 'webbridge:open';

/** Whether a message from the service worker is an {@link OpenMessage}. */
export function isOpenMessage(data: unknown): data is OpenMessage {
  return typeof data === 'object' && data !== null && 'type' in data && data.type === OPEN_MESSAGE;
}

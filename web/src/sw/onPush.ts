import { type PushPayload, pushPayloadSchema } from '@webbridge/contract';
import { readWorkerLanguage } from '../pwa/workerLanguage';
import { keepAlive } from './keepAlive';
import { inTurn } from './noticeTurn';
import { showNotice } from './showNotice';
import { workerWords } from './workerWords';

/** A push's payload if it is one of the contract's (docs/PROTOCOL.md, "Push"), else undefined. */
function payloadOf(data: PushMessageData | null): PushPayload | undefined {
  if (data === null) return undefined;
  let json: unknown;
  try {
    json = data.json();
  } catch {
    return undefined;
  }
  const parsed = pushPayloadSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/**
 * A push from the host: an approval waits (with a token that can decide that one approval,
 * once), it was answered (the notification is replaced), it was withdrawn (the notification
 * goes), a reply finished or failed. Said in the language the page left (workerLanguage.ts).
 * A payload that is not the contract's shows nothing: its words could not be trusted to mean
 * anything, and a notification that says nothing useful is worse than none (a browser that
 * insists on one shows its own "updated in the background").
 */
export function onPush(event: PushEvent): void {
  const payload = payloadOf(event.data);
  if (payload === undefined) return;
  keepAlive(
    event,
    readWorkerLanguage().then((language) => inTurn(() => showNotice(workerWords(language), payload))),
  );
}

/**
 * The example of docs/SDK.md, kept here so that it compiles and runs: `guideExample.test.ts`
 * runs it against a real host and checks that the guide shows exactly this code.
 */
// guide:start
import { BridgeClientError, createBridgeClient, type StoreState } from '@webbridge/client-sdk';

export async function guideExample(baseUrl: string, accessCode: string, log: (line: string) => void) {
  // 1. One client per bridge: every route and action is typed from the contract.
  const client = createBridgeClient({ baseUrl, accessCode });
  /** Resolves once the store's state passes `done`. */
  const until = (done: (state: StoreState) => boolean) =>
    new Promise<void>((resolve) => {
      if (done(client.store.getState())) return resolve();
      const stop = client.store.subscribe((state) => {
        if (!done(state)) return;
        stop();
        resolve();
      });
    });

  // 2. Follow the host: a snapshot, then deltas. The store holds what a UI renders.
  const connection = client.connect();
  const unsubscribe = client.store.subscribe(({ status, snapshot }) => {
    const last = snapshot?.conversations.messages.at(-1);
    log(`${status}: ${last ? `${last.role} (${last.status}): ${last.text}` : 'no messages'}`);
  });
  await until(({ status }) => status === 'live');

  // 3. Attach a file to the conversation on screen, with progress.
  const { conversationId } = client.store.getState().snapshot!;
  const notes = new Blob(['Buy milk. Call Ann.'], { type: 'text/plain' });
  const attachment = await client.upload(notes, 'notes.txt', {
    conversationId,
    onProgress: (loaded, total) => log(`uploaded ${loaded} of ${total} bytes`),
  });

  // 4. Send into the conversation the user sees. If the host has moved elsewhere meanwhile,
  //    nothing is sent (409): ask the user whether to send it there instead.
  const question = 'What is on my list?';
  const outcome = await client.send(question, [attachment.id]);
  if (outcome.kind === 'session_changed') {
    log(`The host is now in "${outcome.destination.title}". Send it there?`);
  } else {
    // The reply streams into the store word by word; wait until it is complete.
    await until(({ snapshot }) => {
      const messages = snapshot?.conversations.messages ?? [];
      return messages.at(-2)?.text === question && messages.at(-1)?.status === 'complete';
    });
  }

  // 5. Failures carry the contract's problem codes.
  try {
    await client.action({ action: 'selectConversation', conversationId: 'no-such-conversation' });
  } catch (error) {
    if (error instanceof BridgeClientError) log(`refused: ${error.status} ${error.code}`);
  }

  unsubscribe();
  connection.close();
  await connection.done;
}
// guide:end

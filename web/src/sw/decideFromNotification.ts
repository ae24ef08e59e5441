import type { PushDecision, PushPayload } from '@webbridge/contract';
import { openApp } from './openApp';
import { BASE } from './scope';

/**
 * Answers an approval with its token, as the device it was pushed to. On success the host's own
 * replacement ("Allowed on Pixel 7 at 10:14") follows as a push; when the token no longer works
 * (answered elsewhere, a host restart) or the host cannot be reached, the app opens at it.
 */
export async function decideFromNotification(
  payload: Extract<PushPayload, { kind: 'approval' }>,
  decision: PushDecision['decision'],
): Promise<unknown> {
  try {
    const body: PushDecision = { token: payload.token, decision };
    const response = await fetch(`${BASE}api/push/decide`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.ok) return undefined;
  } catch {
    // No host: the app shows where things stand once it can reach it.
  }
  return openApp({ approval: payload.approvalId, conversation: payload.conversationId });
}

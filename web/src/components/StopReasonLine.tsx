import type { MessageKey } from '../i18n/catalogue';
import { useT } from '../i18n/I18nContext';
import type { StopReason } from '../state/agentMessageTypes';

const REASON: { readonly [R in StopReason]: MessageKey | null } = {
  end_turn: null,
  max_tokens: 'stopMaxTokens',
  max_turn_requests: 'stopMaxTurnRequests',
  refusal: 'stopRefusal',
  cancelled: 'stopCancelled',
};

/** Why an agent's turn ended, when it did not end normally (nothing for a normal end). */
export function StopReasonLine({ reason }: { readonly reason: StopReason }) {
  const t = useT();
  const key = REASON[reason];
  return key && <p class={`stop-reason stop-reason-${reason}`}>{t(key)}</p>;
}

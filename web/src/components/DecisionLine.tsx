import { decisionKey } from '../i18n/decisionKey';
import { useI18n } from '../i18n/I18nContext';
import type { ApprovalDecision } from '../state/types';

/** Props of {@link DecisionLine}. */
export interface DecisionLineProps {
  readonly decided: ApprovalDecision;
}

/**
 * How an approval was answered, where and when: "Allowed on Pixel 7 at 10:14". Every device
 * shows the same line under the call and its result, and on a card answered elsewhere.
 */
export function DecisionLine({ decided }: DecisionLineProps) {
  const { t, format } = useI18n();
  const { by } = decided;
  const params = { time: format.time(decided.at), device: by.kind === 'device' ? by.name : '' };
  return (
    <p class={`decision decision-${decided.decision}`} title={format.dateTime(decided.at)}>
      {t(decisionKey(decided), params)}
    </p>
  );
}

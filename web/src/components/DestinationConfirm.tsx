import type { Destination } from '@webbridge/client-sdk';
import { identityKey } from '@webbridge/contract';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import { richMessage } from '../i18n/richMessage';

/**
 * How long the button stays disabled after the destination it names has changed under the
 * person: a click already on its way was aimed at the old name, and nobody reads a new one
 * faster than this.
 */
export const RENAMED_HOLD_MS = 600;

/** Props of {@link DestinationConfirm}. */
export interface DestinationConfirmProps {
  /** The destination named, and the one `onConfirm` must send with. */
  readonly destination: Destination;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
  readonly disabled: boolean;
}

/**
 * After a 409: the message was not sent because the host moved to another conversation.
 * Says where it would go now; nothing is sent unless the person confirms. When the host moves
 * on while it is open, it names the new place (announced to screen readers) and holds its
 * button for {@link RENAMED_HOLD_MS}.
 */
export function DestinationConfirm({ destination, onConfirm, onCancel, disabled }: DestinationConfirmProps) {
  const t = useT();
  const where = destination.title || t('aNewConversation');
  const key = identityKey(destination);
  // Measured while rendering, so the very render that shows the new name has the button held.
  const renamed = useRef({ key, at: Number.NEGATIVE_INFINITY, again: false });
  if (renamed.current.key !== key) renamed.current = { key, at: Date.now(), again: true };
  const { at, again } = renamed.current;
  const held = Date.now() - at < RENAMED_HOLD_MS;
  const [, release] = useState(0);
  useEffect(() => {
    const left = at + RENAMED_HOLD_MS - Date.now();
    if (left <= 0) return;
    const timer = setTimeout(() => release((n) => n + 1), left);
    return () => clearTimeout(timer);
  }, [at]);

  return (
    <div class="confirm" role="alertdialog" aria-labelledby="confirm-text">
      <p id="confirm-text" aria-live="assertive">
        {t(again ? 'notSentAgain' : 'notSent')}{' '}
        {richMessage(t('wouldGoTo'), { where: <strong>{where}</strong> })}
      </p>
      <div class="confirm-actions">
        <button type="button" class="primary" disabled={disabled || held} onClick={onConfirm}>
          {t('sendTo', { where })}
        </button>
        <button type="button" onClick={onCancel}>
          {t('keepEditing')}
        </button>
      </div>
    </div>
  );
}

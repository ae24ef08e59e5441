import type { Destination } from '@webbridge/client-sdk';

/** Props of {@link DestinationConfirm}. */
export interface DestinationConfirmProps {
  readonly destination: Destination;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
  readonly disabled: boolean;
}

/**
 * After a 409: the message was not sent because the host moved to another conversation.
 * Says where it would go now; nothing is sent unless the person confirms.
 */
export function DestinationConfirm({ destination, onConfirm, onCancel, disabled }: DestinationConfirmProps) {
  const where = destination.title || 'a new conversation';
  return (
    <div class="confirm" role="alertdialog" aria-labelledby="confirm-text">
      <p id="confirm-text">
        Not sent: the host switched conversations. Your message would now go to <strong>“{where}”</strong>.
      </p>
      <div class="confirm-actions">
        <button type="button" class="primary" disabled={disabled} onClick={onConfirm}>
          Send to “{where}”
        </button>
        <button type="button" onClick={onCancel}>
          Keep editing
        </button>
      </div>
    </div>
  );
}

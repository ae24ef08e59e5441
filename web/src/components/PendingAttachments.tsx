import { formatSize } from '../render/formatSize';
import { useSession } from '../state/SessionContext';
import type { Attachment } from '../state/types';
import type { UploadItem } from '../state/uploads';

/** Props of {@link PendingAttachments}. */
export interface PendingAttachmentsProps {
  readonly pending: readonly Attachment[];
  readonly uploads: readonly UploadItem[];
}

/** Files going with the next message: uploads in progress (with a bar) and pending ones. */
export function PendingAttachments({ pending, uploads }: PendingAttachmentsProps) {
  const session = useSession();
  const pendingIds = new Set(pending.map((a) => a.id));
  const shown = uploads.filter((u) => !(u.attachmentId !== undefined && pendingIds.has(u.attachmentId)));
  if (pending.length === 0 && shown.length === 0) return null;
  return (
    <ul class="pending" aria-label="Attachments for the next message">
      {pending.map((attachment) => (
        <li key={attachment.id} class="chip" data-attachment-id={attachment.id}>
          <span class="chip-name">{attachment.name}</span>
          <span class="chip-size">{formatSize(attachment.size)}</span>
          <button
            type="button"
            class="icon"
            aria-label={`Remove ${attachment.name}`}
            onClick={() => void session.act({ action: 'removeAttachment', attachmentId: attachment.id })}
          >
            ×
          </button>
        </li>
      ))}
      {shown.map((upload) => (
        <li key={`u${upload.key}`} class={`chip chip-${upload.status}`}>
          <span class="chip-name">{upload.name}</span>
          {upload.status === 'error' ? (
            <span class="chip-error" role="alert">
              {upload.error}
            </span>
          ) : (
            <progress
              max={upload.size || 1}
              value={upload.status === 'done' ? upload.size || 1 : upload.loaded}
              aria-label={`Uploading ${upload.name}`}
            />
          )}
          {upload.status !== 'done' && (
            <button
              type="button"
              class="icon"
              aria-label={upload.status === 'uploading' ? `Cancel ${upload.name}` : `Dismiss ${upload.name}`}
              onClick={() => session.uploads.dismiss(upload.key)}
            >
              ×
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

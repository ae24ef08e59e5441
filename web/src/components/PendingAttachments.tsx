import { useI18n } from '../i18n/I18nContext';
import { useSession } from '../state/SessionContext';
import type { Attachment } from '../state/types';
import type { UploadItem } from '../state/uploads';

/** Props of {@link PendingAttachments}. */
export interface PendingAttachmentsProps {
  readonly pending: readonly Attachment[];
  readonly uploads: readonly UploadItem[];
}

function isPicture(type: string): boolean {
  return type.startsWith('image/') && type !== 'image/svg+xml';
}

/**
 * A small picture of an image going with the message: the local file while it uploads, the
 * host's copy once listed. Decorative (the name beside it says which file); a picture that
 * does not load is left out rather than shown broken.
 */
function Thumbnail({ url }: { readonly url: string }) {
  return (
    <img
      class="chip-thumb"
      src={url}
      alt=""
      width={32}
      height={32}
      onError={(event) => {
        event.currentTarget.hidden = true;
      }}
    />
  );
}

/**
 * Files going with the next message: uploads in progress (with a bar) and pending ones, with
 * a thumbnail for pictures.
 */
export function PendingAttachments({ pending, uploads }: PendingAttachmentsProps) {
  const session = useSession();
  const { t, format } = useI18n();
  const pendingIds = new Set(pending.map((a) => a.id));
  const shown = uploads.filter((u) => !(u.attachmentId !== undefined && pendingIds.has(u.attachmentId)));
  if (pending.length === 0 && shown.length === 0) return null;
  return (
    <ul class="pending" aria-label={t('pendingAttachments')}>
      {pending.map((attachment) => (
        <li key={attachment.id} class="chip" data-attachment-id={attachment.id}>
          {isPicture(attachment.type) && <Thumbnail url={session.media.urlOf(attachment)} />}
          <bdi class="chip-name">{attachment.name}</bdi>
          <span class="chip-size">{format.size(attachment.size)}</span>
          <button
            type="button"
            class="icon"
            aria-label={t('removeAttachment', { name: attachment.name })}
            onClick={() => void session.act({ action: 'removeAttachment', attachmentId: attachment.id })}
          >
            ×
          </button>
        </li>
      ))}
      {shown.map((upload) => (
        <li key={`u${upload.key}`} class={`chip chip-${upload.status}`}>
          {upload.previewUrl && <Thumbnail url={upload.previewUrl} />}
          <bdi class="chip-name">{upload.name}</bdi>
          {upload.status === 'error' ? (
            <span class="chip-error" role="alert">
              {upload.errorKey === undefined ? upload.error : t(upload.errorKey)}
            </span>
          ) : (
            <progress
              max={upload.size || 1}
              value={upload.status === 'done' ? upload.size || 1 : upload.loaded}
              aria-label={t('uploading', { name: upload.name })}
            />
          )}
          {upload.status !== 'done' && (
            <button
              type="button"
              class="icon"
              aria-label={t(upload.status === 'uploading' ? 'cancelUpload' : 'dismissUpload', {
                name: upload.name,
              })}
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

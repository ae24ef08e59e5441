import { useEffect, useState } from 'preact/hooks';
import { useI18n } from '../i18n/I18nContext';
import { useObservable } from '../state/hooks';
import { useSession } from '../state/SessionContext';
import type { Attachment } from '../state/types';
import { Icon } from './Icon';

/** Props of {@link AttachmentView}. */
export interface AttachmentViewProps {
  readonly attachment: Attachment;
}

/**
 * An attachment of a message: images inline, other files as a link, both read through a media
 * id. An expired id, or one the host refuses, is replaced with a fresh one (once per failure).
 */
export function AttachmentView({ attachment }: AttachmentViewProps) {
  const { media } = useSession();
  const { t, format } = useI18n();
  useObservable(media.fresh);
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const expired = media.isExpired(attachment);
  const url = media.urlOf(attachment);

  useEffect(() => {
    if (expired) void media.refresh(attachment.id);
  }, [expired, attachment.id, media]);

  const isImage = attachment.type.startsWith('image/') && attachment.type !== 'image/svg+xml';
  const label = t('attachmentLabel', { name: attachment.name, size: format.size(attachment.size) });
  if (isImage && failedUrl !== url) {
    return (
      <li class="attachment attachment-image">
        <a
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={t('openAttachment', { name: attachment.name })}
        >
          <img
            src={url}
            alt={attachment.name}
            loading="lazy"
            onError={() => {
              setFailedUrl(url);
              void media.refresh(attachment.id);
            }}
          />
        </a>
      </li>
    );
  }
  return (
    <li class="attachment attachment-file">
      <a href={url} target="_blank" rel="noopener noreferrer" download={attachment.name}>
        <Icon name="file" />
        {label}
      </a>
    </li>
  );
}

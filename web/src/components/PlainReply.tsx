import type { MessageKey } from '../i18n/catalogue';
import { useT } from '../i18n/I18nContext';

/** Why a reply is shown as written (see boundedLex), or null while it is still being formatted. */
export type PlainReason = 'deep' | 'slow' | 'broken' | null;

const NOTICE: { readonly [R in Exclude<PlainReason, null>]: MessageKey } = {
  deep: 'replyTooDeep',
  slow: 'replyTooSlow',
  broken: 'replyNotFormatted',
};

/**
 * A reply shown as the text it is: while its formatting is on the way, or for good, with a
 * small notice saying why, when formatting it could have broken or held the page.
 */
export function PlainReply({ text, reason }: { readonly text: string; readonly reason: PlainReason }) {
  const t = useT();
  return (
    <div class="markdown-fallback">
      {reason && (
        <p class="markdown-notice" role="note">
          {t(NOTICE[reason])}
        </p>
      )}
      <p class="markdown-plain">{text}</p>
    </div>
  );
}

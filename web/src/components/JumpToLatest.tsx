import { useT } from '../i18n/I18nContext';

/** Props of {@link JumpToLatest}. */
export interface JumpToLatestProps {
  readonly onJump: () => void;
}

/**
 * The "jump to latest" button, shown while a reply streams and the person has scrolled away
 * from the end. It sits in a zero-height sticky strip at the end of the scrolling list, so it
 * floats over the messages without moving any of them (no layout shift).
 */
export function JumpToLatest({ onJump }: JumpToLatestProps) {
  const t = useT();
  return (
    <div class="jump-latest-strip">
      <button type="button" class="jump-latest" onClick={onJump}>
        <span aria-hidden="true">↓</span> {t('jumpToLatest')}
      </button>
    </div>
  );
}

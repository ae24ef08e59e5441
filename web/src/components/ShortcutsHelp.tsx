import { Fragment } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { MessageKey } from '../i18n/catalogue';
import { useT } from '../i18n/I18nContext';
import { noteKeyPress } from '../render/keyboardInUse';
import { MOD, modifierHeld } from '../render/modifierKey';
import { useSession } from '../state/SessionContext';
import { useStoreSelector } from '../state/useStoreSelector';
import { useWatching } from '../state/WatchingContext';

/** The shortcuts the help lists, in its order (Escape's stop lives in ChatScreen). */
const SHORTCUTS: readonly { readonly keys: readonly string[]; readonly label: MessageKey }[] = [
  { keys: [MOD, 'Shift', 'O'], label: 'shortcutNewChat' },
  { keys: ['/'], label: 'shortcutFocusComposer' },
  { keys: [MOD, 'F'], label: 'shortcutFind' },
  { keys: ['Esc'], label: 'shortcutStop' },
  { keys: ['?'], label: 'shortcutHelp' },
];

/** Is the key meant for a text field (so a bare `/` or `?` is text, not a shortcut)? */
function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
  );
}

/**
 * The keyboard shortcuts of the chat (new chat, focus the composer, this help) and the "?"
 * button in the top bar that lists them in a popover. Escape closes the popover without
 * stopping a reply.
 */
export function ShortcutsHelp() {
  const t = useT();
  const session = useSession();
  const projectId = useStoreSelector(session.store, (state) => state.snapshot?.projectId);
  const watching = useWatching();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      noteKeyPress(event);
      if (event.defaultPrevented || event.altKey) return;
      const mod = modifierHeld(event);
      if (mod && event.shiftKey && event.key.toLowerCase() === 'o') {
        event.preventDefault();
        if (!watching && projectId !== undefined) void session.act({ action: 'newConversation', projectId });
      } else if (mod && event.key === '/') {
        event.preventDefault();
        setOpen((now) => !now);
      } else if (!typing(event.target) && !event.ctrlKey && !event.metaKey) {
        if (event.key === '/') {
          const composer = document.querySelector<HTMLTextAreaElement>('.composer-input');
          if (!composer) return;
          event.preventDefault();
          composer.focus();
        } else if (event.key === '?') {
          event.preventDefault();
          setOpen(true);
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [session, watching, projectId]);

  // A layout effect: the listeners are there when the popover is drawn. An effect runs after
  // paint, so an Escape pressed in between did nothing (tests/browser/navigation.test.ts).
  useLayoutEffect(() => {
    if (!open) return;
    popover.current?.focus();
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!popover.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    // Escape closes the popover wherever the focus is (it may still be on the button that
    // opened it), and only that: caught on the way down, before the page's Escape (stop the
    // reply) sees it.
    const onEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onEscape, true);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onEscape, true);
    };
  }, [open]);

  return (
    <div class="shortcuts">
      <button
        ref={button}
        type="button"
        class="icon shortcuts-button"
        aria-label={t('shortcuts')}
        title={t('shortcuts')}
        aria-expanded={open}
        aria-controls="shortcuts-popover"
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true">?</span>
      </button>
      {open && (
        <div
          ref={popover}
          id="shortcuts-popover"
          class="shortcuts-popover"
          role="dialog"
          aria-labelledby="shortcuts-heading"
          tabIndex={-1}
        >
          <h2 id="shortcuts-heading">{t('shortcuts')}</h2>
          <dl>
            {SHORTCUTS.map(({ keys, label }) => (
              <div key={label} class="shortcut">
                <dt>
                  {keys.map((key, i) => (
                    <Fragment key={key}>
                      {i > 0 && ' + '}
                      <kbd>{key}</kbd>
                    </Fragment>
                  ))}
                </dt>
                <dd>{t(label)}</dd>
              </div>
            ))}
          </dl>
        </div>
      )}
    </div>
  );
}

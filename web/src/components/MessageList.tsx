import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import { estimateMessageHeight } from '../render/estimateMessageHeight';
import { useVirtualizer } from '../render/useVirtualizer';
import { ForkableContext } from '../state/ForkableContext';
import { IdleContext } from '../state/IdleContext';
import type { RevealRequest } from '../state/revealRequest';
import type { Approval, Message, Snapshot } from '../state/types';
import { JumpToLatest } from './JumpToLatest';
import { MessageItem } from './MessageItem';

const NONE: readonly Approval[] = [];
/** Space between two messages, and above the first and below the last, in CSS px. */
const GAP = 16;
/** Messages drawn beyond each edge of the screen, so that scrolling shows them already drawn. */
const OVERSCAN = 6;
/** How near the end (CSS px) still counts as "at the latest message". */
const AT_END = 48;

/** Props of {@link MessageList}. */
export interface MessageListProps {
  readonly snapshot: Snapshot;
  /** A message to bring into view (find going to a match); a new `seq` asks again. */
  readonly reveal?: RevealRequest | null;
}

/**
 * The current branch of the conversation, windowed: only the messages on screen and a few
 * beyond each edge are in the page, whatever the length of the conversation, between two
 * paddings that stand for the others (measured heights where a message was drawn, a guess
 * from its length where not). A streamed word thus costs the same in a conversation of 20 or
 * 2,000 messages, and so does the page's memory (docs/DECISIONS.md, "The list is windowed").
 *
 * TanStack Virtual keeps the window's positions: it measures each drawn message as it changes
 * size and holds what is on screen still when a message above it takes its real height. The
 * list itself follows the end while a reply grows and new messages arrive, from the page's own
 * measure of the end, until the person scrolls up to read. Every message says its place in
 * the whole list (aria-posinset / aria-setsize), so a screen reader announces "12 of 2,000".
 * Mount it with `key={conversationId}` so that another conversation starts over.
 */
export function MessageList({ snapshot, reveal = null }: MessageListProps) {
  const t = useT();
  const scroller = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const pinned = useRef(true);
  // Where following the reply last put the view: its top and its bottom edge (scroll
  // positions). The browser reports a scroll a frame late: a person's scroll up that arrives
  // with a streamed word would otherwise be undone by following before its scroll event says
  // they left the end.
  const followed = useRef<{ top: number; bottom: number } | undefined>(undefined);
  const [away, setAway] = useState(false);
  const { messages, run } = snapshot.conversations;
  // True until the list has opened at its end: tests and the benchmark wait for it.
  const [opening, setOpening] = useState(true);

  // Keeps the end in view while pinned, from the page's own measure of it (scrollHeight), so
  // a guess or a rounding in the virtualizer's model never leaves the view short of the end.
  // Moved up from where following left it, and not merely held at the end of a list that got
  // shorter: the person scrolled away, and the scroll event has not arrived yet.
  const follow = () => {
    const el = scroller.current;
    if (!el || !pinned.current) return;
    const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
    if (!atEnd && movedUp(el, followed.current)) {
      pinned.current = false;
      setAway(true);
      return;
    }
    el.scrollTop = el.scrollHeight;
    followed.current = viewOf(el);
  };
  const estimate = (index: number) => {
    const message = messages[index];
    return message ? estimateMessageHeight(message, scroller.current?.clientWidth ?? innerWidth) : 0;
  };
  const list = useVirtualizer<HTMLDivElement, HTMLLIElement>({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: estimate,
    // The first render already draws the end (from the guesses), not the first messages.
    initialOffset: () => {
      let total = GAP;
      for (let i = 0; i < messages.length; i++) total += estimate(i) + GAP;
      return Math.max(0, total - innerHeight);
    },
    getItemKey: useKeyOf(messages),
    gap: GAP,
    paddingStart: GAP,
    paddingEnd: GAP,
    overscan: OVERSCAN,
    // A size change is applied in the next frame, not inside the ResizeObserver's delivery:
    // re-rendering there (the list's paddings) made the browser report a ResizeObserver loop.
    useAnimationFrameWithResizeObserver: true,
  });

  // While the view follows the end, a message above it taking its measured height must not
  // move the scroll position (following does, to the new end; the virtualizer's correction
  // would read as the person scrolling away). Otherwise the virtualizer's own rule: hold what
  // is on screen still.
  list.shouldAdjustScrollPositionOnItemSizeChange = (item, _delta, instance) => {
    if (pinned.current) return false;
    const offset = instance.scrollOffset ?? 0;
    return instance.itemSizeCache.has(item.key)
      ? item.end <= offset && instance.scrollDirection !== 'backward'
      : item.start < offset;
  };

  const last = messages.at(-1);

  // The end moves when the list changes size: a streamed word, a new message, an approval, a
  // message taking its measured height in place of its guess (the paddings: hence the border
  // box), an image that loads, code highlighted or math typeset later; and the list's view
  // gets shorter when something beside it takes height (a bar, the composer). Followed from
  // the observer alone, after the browser's own layout of the frame: following from the
  // list's render as well read the end in the middle of the task, a forced layout per streamed
  // word that a key pressed meanwhile waited behind (issue 29).
  const hasList = messages.length > 0;
  useLayoutEffect(() => {
    const content = listRef.current;
    const view = scroller.current;
    if (!hasList || !content || !view) return;
    // `follow` reads only refs and a state setter, so the first render's copy serves for good.
    // It runs in the next animation frame, not inside the observer's delivery: moving the view
    // there makes the virtualizer re-render (Preact, in a microtask) and change the list's
    // paddings, the border box observed here, before the delivery ends, which WebKit reports
    // as a ResizeObserver loop (a page error; engines/connecting failed 2 of 3 runs).
    let frame = 0;
    const observer = new ResizeObserver(() => {
      if (frame !== 0) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        follow();
      });
    });
    observer.observe(content, { box: 'border-box' });
    observer.observe(view);
    setOpening(false);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [hasList]);

  // Brings the message asked for (the find bar's current match) into view: drawn first when
  // it is outside the window, then centred; the view no longer follows the end.
  useLayoutEffect(() => {
    if (!reveal) return;
    const index = messages.findIndex((m) => m.id === reveal.messageId);
    if (index < 0) return;
    pinned.current = false;
    list.scrollToIndex(index, { align: 'center' });
  }, [reveal]);

  const items = list.getVirtualItems();
  const first = items[0];
  const lastItem = items.at(-1);
  const lastReply = messages.findLast((m) => m.role === 'assistant');
  return (
    <div
      class="messages"
      ref={scroller}
      onScroll={(event) => {
        const el = event.currentTarget;
        const nearEnd = el.scrollHeight - el.scrollTop - el.clientHeight < AT_END;
        // The event of following itself (the view where following put it, or lower), or of
        // the browser holding it at the end as the view got taller, is no person scrolling up,
        // however far the end has moved since: still pinned, and catch up.
        const stayed = pinned.current && followed.current !== undefined && !movedUp(el, followed.current);
        pinned.current = nearEnd || stayed;
        if (nearEnd) followed.current = viewOf(el);
        else if (stayed) follow();
        if (away === pinned.current) setAway(!pinned.current);
      }}
    >
      {messages.length === 0 ? (
        <p class="empty">{t('noMessages')}</p>
      ) : (
        <ForkableContext.Provider value={snapshot.agents?.session === undefined}>
          <IdleContext.Provider value={run.state === 'idle'}>
            <ol
              ref={listRef}
              class="message-list"
              aria-label={t('messages')}
              aria-busy={opening}
              style={{
                paddingTop: `${first?.start ?? 0}px`,
                paddingBottom: `${lastItem ? list.getTotalSize() - lastItem.end : 0}px`,
              }}
            >
              {items.map(({ index }) => {
                const message = messages[index];
                if (!message) return null;
                return (
                  <MessageItem
                    key={message.id}
                    message={message}
                    isLast={message === last}
                    isLastReply={message === lastReply}
                    approvals={message.status === 'waiting' ? snapshot.approvals : NONE}
                    index={index}
                    setSize={messages.length}
                    measure={list.measureElement}
                  />
                );
              })}
            </ol>
          </IdleContext.Provider>
        </ForkableContext.Provider>
      )}
      {away && run.state !== 'idle' && (
        <JumpToLatest
          onJump={() => {
            const el = scroller.current;
            if (!el) return;
            pinned.current = true;
            setAway(false);
            el.scrollTop = el.scrollHeight;
            followed.current = viewOf(el);
          }}
        />
      )}
    </div>
  );
}

/** Where a view is: the scroll positions of its top and its bottom edge. */
function viewOf(el: HTMLElement): { top: number; bottom: number } {
  return { top: el.scrollTop, bottom: el.scrollTop + el.clientHeight };
}

/**
 * Whether the view has moved up from where following left it, as only a person's scroll moves
 * it: its top and its bottom edge both higher. The browser moves one edge alone: a view that
 * gets shorter (a bar appears beside it) keeps its top, and a view that gets taller (a bar goes
 * away) at the end of the list keeps its bottom edge there, the browser lowering the scroll
 * position to hold it. That last one, followed in the same frame by the messages growing, read
 * as the person scrolling up when only the top was compared: a loaded phone opened 51 px above
 * its end and stayed there (issue 29; tests/browser/longConversation.test.ts).
 */
function movedUp(el: HTMLElement, followed: { top: number; bottom: number } | undefined): boolean {
  if (followed === undefined) return false;
  return el.scrollTop < followed.top - 1 && el.scrollTop + el.clientHeight < followed.bottom - 1;
}

/**
 * The key of the message at an index, as a function that stays the same while the list holds
 * the same messages in the same places: the virtualizer lays out every message again when it
 * changes, which a streamed word (a new list with one message replaced) must not cause.
 */
function useKeyOf(messages: readonly Message[]): (index: number) => string | number {
  const kept = useRef<{ messages: readonly Message[]; keyOf: (index: number) => string | number }>();
  let current = kept.current;
  if (current && sameIds(current.messages, messages)) current.messages = messages;
  else {
    current = { messages, keyOf: (index) => messages[index]?.id ?? index };
    kept.current = current;
  }
  return current.keyOf;
}

function sameIds(a: readonly Message[], b: readonly Message[]): boolean {
  // The same list (the virtualizer's own renders as it measures): nothing to compare.
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && a[i]?.id !== b[i]?.id) return false;
  return true;
}

import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import { whenIdle } from '../render/whenIdle';
import { IdleContext } from '../state/IdleContext';
import type { RevealRequest } from '../state/revealRequest';
import type { Snapshot } from '../state/types';
import { JumpToLatest } from './JumpToLatest';
import { EAGER_MESSAGES, MessageChunk } from './MessageChunk';

/** How many of the latest messages the first render shows. */
export const FIRST_RENDER = 40;
/** How many earlier messages each later step adds, while the browser is idle. */
export const RENDER_STEP = 200;
/**
 * Messages per chunk of the list. A streamed word renders the list again: each chunk compares
 * its messages by identity and only the changed one renders, so the cost of a word grows with
 * the number of chunks (40 for 2,000 messages), not of messages (Preact diffed all 2,000).
 * Chunks two or more chunks above the end are boxes the browser skips whole while off screen
 * (content-visibility): the layout after a word then walks ~40 boxes and the latest messages,
 * not 2,000 (figures in docs/PERFORMANCE.md).
 */
const CHUNK = 50;

/** Props of {@link MessageList}. */
export interface MessageListProps {
  readonly snapshot: Snapshot;
  /** A message to bring into view (find going to a match); a new `seq` asks again. */
  readonly reveal?: RevealRequest | null;
}

/**
 * The current branch of the conversation. Follows the bottom while a reply streams, unless
 * the person scrolled up to read.
 *
 * A long conversation opens at its latest messages at once; the earlier ones are added above
 * in steps while the browser is idle, so no step blocks the page for long, and scroll
 * anchoring keeps what is on screen in place. Mount it with `key={conversationId}` so that
 * another conversation starts over.
 */
export function MessageList({ snapshot, reveal = null }: MessageListProps) {
  const t = useT();
  const scroller = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const pinned = useRef(true);
  // Where following the reply last put the scroll position. The browser reports a scroll a
  // frame late: a person's scroll up that arrives with a streamed word would otherwise be
  // undone by following before its scroll event says they left the end.
  const followedTo = useRef<number | undefined>(undefined);
  const [away, setAway] = useState(false);
  const { messages, run } = snapshot.conversations;
  const [notYet, setNotYet] = useState(() => Math.max(0, messages.length - FIRST_RENDER));
  // Never hide the latest messages, even when a branch switch made the list shorter.
  const start = Math.min(notYet, Math.max(0, messages.length - FIRST_RENDER));
  const last = messages.at(-1);

  // Keeps the end in view while pinned. Above where following left it, and not merely held
  // at the end of a list that got shorter: the person scrolled away, and the scroll event has
  // not arrived yet.
  const follow = () => {
    const el = scroller.current;
    if (!el || !pinned.current) return;
    const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
    if (followedTo.current !== undefined && el.scrollTop < followedTo.current - 1 && !atEnd) {
      pinned.current = false;
      setAway(true);
      return;
    }
    el.scrollTop = el.scrollHeight;
    followedTo.current = el.scrollTop;
  };
  useLayoutEffect(follow, [messages, last?.text, snapshot.approvals, start]);

  // The end also moves without a render of this list: a message drawn at its real height in
  // place of its estimate (content-visibility), an image that loads, code highlighted or math
  // typeset later. Without this, on a loaded machine the latest messages' real heights came a
  // frame after the list had followed, a scroll event then said the end was far below, and
  // the conversation opened 1536 px above its latest message.
  const hasList = messages.length > 0;
  useLayoutEffect(() => {
    const content = list.current;
    if (!hasList || !content) return;
    // `follow` reads only refs and a state setter, so the first render's copy serves for good.
    const observer = new ResizeObserver(follow);
    observer.observe(content);
    return () => observer.disconnect();
  }, [hasList]);

  // Minimal reveal (every message is in the DOM here); the windowed list draws it first.
  useLayoutEffect(() => {
    const el =
      reveal && scroller.current?.querySelector(`[data-message-id="${CSS.escape(reveal.messageId)}"]`);
    if (!el) return;
    pinned.current = false;
    el.scrollIntoView({ block: 'center' });
  }, [reveal]);

  useEffect(() => {
    if (start === 0) return;
    return whenIdle(() => setNotYet(Math.max(0, start - RENDER_STEP)));
  }, [start]);

  const lastReply = messages.findLast((m) => m.role === 'assistant');
  return (
    <div
      class="messages"
      ref={scroller}
      onScroll={(event) => {
        const el = event.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
        if (pinned.current) followedTo.current = el.scrollTop;
        if (away === pinned.current) setAway(!pinned.current);
      }}
    >
      {messages.length === 0 ? (
        <p class="empty">{t('noMessages')}</p>
      ) : (
        <IdleContext.Provider value={run.state === 'idle'}>
          {/* The list role, explicit: the list is checked by its items in the accessibility
              tree (the chunks' boxes, role none, are transparent there), not by its children. */}
          <ol
            ref={list}
            // biome-ignore lint/a11y/noRedundantRoles: checked by its items in the accessibility tree, not its children
            role="list"
            class="message-list"
            aria-label={t('messages')}
            aria-busy={start > 0}
          >
            {chunks(start, messages.length).map(([from, to]) => (
              <MessageChunk
                key={Math.floor(from / CHUNK)}
                messages={messages}
                from={from}
                to={to}
                last={last}
                lastReply={lastReply}
                approvals={snapshot.approvals}
                eagerFrom={messages.length - EAGER_MESSAGES}
                boxed={to - from === CHUNK && to <= messages.length - 2 * CHUNK}
              />
            ))}
          </ol>
        </IdleContext.Provider>
      )}
      {away && run.state !== 'idle' && (
        <JumpToLatest
          onJump={() => {
            const el = scroller.current;
            if (!el) return;
            pinned.current = true;
            setAway(false);
            el.scrollTop = el.scrollHeight;
            followedTo.current = el.scrollTop;
          }}
        />
      )}
    </div>
  );
}

/** The chunks covering messages `start` to `end`: fixed boundaries, so a chunk keeps its key. */
function chunks(start: number, end: number): [number, number][] {
  const out: [number, number][] = [];
  for (let from = start; from < end; from = (Math.floor(from / CHUNK) + 1) * CHUNK)
    out.push([from, Math.min(end, (Math.floor(from / CHUNK) + 1) * CHUNK)]);
  return out;
}

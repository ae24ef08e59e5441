import { useContext, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { MessageKey } from '../i18n/catalogue';
import { useT } from '../i18n/I18nContext';
import { pathsWithin } from '../render/pathsWithin';
import { pure } from '../render/pure';
import { relativePath } from '../render/relativePath';
import { terminalText } from '../render/terminalText';
import type { AgentToolCall } from '../state/agentMessageTypes';
import { ProjectRootContext } from '../state/ProjectRootContext';
import { DiffDisclosure } from './DiffDisclosure';
import { DiffView } from './DiffView';
import { ToolKindIcon } from './ToolKindIcon';

/** Props of {@link AgentToolCard}. */
export interface AgentToolCardProps {
  readonly call: AgentToolCall;
  /** The call's text output (a terminal's output streams here). */
  readonly output: string;
  /** True while the approval card under it shows the same diffs: they are not drawn twice. */
  readonly diffsShownBelow?: boolean;
  /**
   * How its message ended when that was not the call's own end (the agent stopped or failed
   * mid-call): a call still pending or running then shows this instead.
   */
  readonly ended?: 'stopped' | 'error';
}

const STATUS: { readonly [S in AgentToolCall['status']]: MessageKey } = {
  pending: 'toolStatusPending',
  in_progress: 'toolStatusRunning',
  completed: 'toolStatusDone',
  failed: 'toolStatusFailed',
};

/** How near the end (px) a terminal block still counts as following it. */
const FOLLOW_SLACK = 24;

/**
 * An ACP agent's tool call as a compact card: what kind of thing it does, its title and status,
 * the files it works on (a tap opens that file's diff), its diffs, and its terminal output in a
 * scrolling block that follows the end as output arrives, unless the person scrolled up.
 */
export function AgentToolCard({ call, output, diffsShownBelow = false, ended }: AgentToolCardProps) {
  const t = useT();
  // A host restart stops the agent while a call waits: the card must not say "Pending" for ever.
  const unfinished = call.status === 'pending' || call.status === 'in_progress';
  const status = unfinished && ended !== undefined ? (ended === 'error' ? 'failed' : 'stopped') : call.status;
  const statusLabel = t(status === 'stopped' ? 'statusStopped' : STATUS[status]);
  const card = useRef<HTMLElement>(null);
  const root = useContext(ProjectRootContext);
  // The agent's title names files by their whole path on the host: from the project's folder,
  // as the file list below does (five lines of a phone's card otherwise), whole on hover.
  const title = pathsWithin(call.title, root);
  const diffs = diffsShownBelow ? [] : call.content.flatMap((item) => (item.type === 'diff' ? [item] : []));
  const terminal = call.content.some((item) => item.type === 'terminal');
  // A single diff is drawn open with its path in its header: a link to it would repeat it.
  const links = diffs.length === 1 ? call.locations.filter((l) => l.path !== diffs[0]?.path) : call.locations;
  const openDiff = (path: string) => {
    const details = [
      ...(card.current?.querySelectorAll<HTMLDetailsElement>('details[data-diff-for]') ?? []),
    ].find((element) => element.dataset.diffFor === path);
    if (!details) return;
    details.open = true;
    details.scrollIntoView({ block: 'nearest' });
    details.querySelector('summary')?.focus();
  };
  return (
    <section
      ref={card}
      class={`agent-tool agent-tool-${call.status}`}
      aria-label={t('toolCardLabel', { title, status: statusLabel })}
      data-tool-call-id={call.id}
    >
      <div class="agent-tool-head">
        <ToolKindIcon kind={call.kind} />
        <span class="agent-tool-title" title={title === call.title ? undefined : call.title}>
          {title}
        </span>
        <span class={`agent-tool-status agent-tool-status-${status}`}>{statusLabel}</span>
      </div>
      {links.length > 0 && (
        <ul class="agent-tool-locations" aria-label={t('toolLocations')}>
          {links.map((location) => {
            const path = relativePath(location.path, root) ?? location.path;
            const label = location.line === undefined ? path : `${path}:${location.line}`;
            const hasDiff = diffs.some((diff) => diff.path === location.path);
            return (
              <li key={label}>
                {hasDiff ? (
                  <button
                    type="button"
                    class="agent-tool-location link"
                    aria-label={t('toolOpenDiff', { path: label })}
                    title={location.path}
                    onClick={() => openDiff(location.path)}
                  >
                    {label}
                  </button>
                ) : (
                  <code class="agent-tool-location" title={location.path}>
                    {label}
                  </code>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {diffs.length === 1 && diffs[0] ? (
        <DiffView diff={diffs[0]} />
      ) : (
        diffs.map((diff) => (
          <DiffDisclosure
            key={diff.path}
            class="agent-tool-diff"
            diff={diff}
            summary={t('toolDiffOf', { path: diff.path.slice(diff.path.lastIndexOf('/') + 1) })}
          />
        ))
      )}
      {terminal ? (
        <TerminalOutput text={output} />
      ) : (
        output !== '' && (
          <details class="agent-tool-output">
            <summary>{t('toolOutput')}</summary>
            <pre dir="auto">{output}</pre>
          </details>
        )
      )}
    </section>
  );
}

/**
 * A terminal's output in a scrolling block that follows its end. Only its last
 * {@link TAIL_CHUNKS} blocks are in the page while it follows: a 2,000-line build costs a slow
 * phone the same per update as a 200-line one (tests/bench/agentDiffSlowPhone.ts). Earlier
 * output comes back, {@link TAIL_CHUNKS} blocks a tap, from a button above the block; while the
 * person reads higher up, the blocks they see stay put as more output arrives.
 */
function TerminalOutput({ text }: { text: string }) {
  const t = useT();
  const block = useRef<HTMLPreElement>(null);
  // Whether the block was at its end before this text arrived: then it stays there. A finished
  // command opens at its end too, where its result is.
  const [following, setFollowing] = useState(true);
  // The first block drawn while the person reads higher up (what they see stays drawn), and the
  // earliest they asked for; neither: the last few blocks, moving on as output arrives.
  const [held, setHeld] = useState<number | undefined>(undefined);
  const [asked, setAsked] = useState<number | undefined>(undefined);
  const ends = useChunkEnds(text);
  const chunks = chunksOf(text, ends);
  const tailFirst = Math.max(0, chunks.length - TAIL_CHUNKS);
  const first = Math.min(tailFirst, held ?? tailFirst, asked ?? tailFirst);
  const firstRef = useRef(first);
  firstRef.current = first;
  useLayoutEffect(() => {
    const element = block.current;
    if (element && following) element.scrollTop = element.scrollHeight;
  }, [text, following]);
  useEffect(() => {
    const element = block.current;
    if (!element) return;
    const onScroll = () => {
      const atEnd = element.scrollHeight - element.scrollTop - element.clientHeight <= FOLLOW_SLACK;
      setFollowing(atEnd);
      setHeld((kept) => (atEnd ? undefined : (kept ?? firstRef.current)));
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, []);
  // Every block before the first drawn is full.
  const hidden = first * CHUNK_LINES;
  return (
    <section class="agent-terminal-box" aria-label={t('toolTerminal')}>
      {hidden > 0 && (
        <button
          type="button"
          class="agent-terminal-earlier link-button"
          onClick={() => setAsked(Math.max(0, first - TAIL_CHUNKS))}
        >
          {t('toolTerminalEarlier', { count: hidden })}
        </button>
      )}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard */}
      <pre ref={block} class="agent-terminal" tabIndex={0}>
        {text === ''
          ? t('toolTerminalEmpty')
          : chunks.slice(first).map((chunk, index) => <TerminalChunk key={first + index} text={chunk} />)}
      </pre>
    </section>
  );
}

/** Lines per block of terminal output: a line that arrives lays out its block again, no more. */
const CHUNK_LINES = 50;
/** Blocks drawn at the end of a terminal's output while it follows (200 lines). */
const TAIL_CHUNKS = 4;

/**
 * Where each block of {@link CHUNK_LINES} lines ends in `text`, found again only past the last
 * known end while the output grows (a command's output only grows while it runs).
 */
function useChunkEnds(text: string): readonly number[] {
  const known = useRef<{ text: string; ends: readonly number[] }>({ text: '', ends: [] });
  const previous = known.current;
  if (previous.text === text) return previous.ends;
  const ends = text.startsWith(previous.text) ? [...previous.ends] : [];
  let lines = 0;
  for (let at = text.indexOf('\n', ends.at(-1) ?? 0); at >= 0; at = text.indexOf('\n', at + 1)) {
    if (++lines < CHUNK_LINES) continue;
    ends.push(at + 1);
    lines = 0;
  }
  known.current = { text, ends };
  return ends;
}

function chunksOf(text: string, ends: readonly number[]): string[] {
  const chunks: string[] = [];
  let from = 0;
  for (const end of ends) {
    chunks.push(text.slice(from, end));
    from = end;
  }
  if (from < text.length) chunks.push(text.slice(from));
  return chunks;
}

// One block per 50 lines, each drawn once: a line that arrives changes the last block only, so
// the browser lays out that block and not the whole output (2,000 lines cost a slow phone about
// a second per update when they were one text).
const TerminalChunk = pure(function TerminalChunk({ text }: { text: string }) {
  return <span class="agent-terminal-chunk">{terminalText(text)}</span>;
});

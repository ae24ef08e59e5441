import type { Token } from 'marked';
import { Component, type ComponentChildren, render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { PlainReply } from '../components/PlainReply';
import { acceptPart, boundedLex, type Refusal } from './boundedLex';
import type { FootnoteToken } from './extensions';
import { FootnoteContext, FootnoteList, type Footnotes } from './footnotes';
import type { Lexed, LexPlan } from './lexMarkdown';
import { lexOffThread } from './lexOffThread';
import { renderToken, renderTokens } from './renderTokens';

/** Props of {@link MarkdownView}. */
export interface MarkdownViewProps {
  readonly text: string;
}

/**
 * One top-level block. It renders again only when its token is new, which {@link lexMarkdown}
 * makes so only for the last blocks (lexed again as the text grows), whatever the length of
 * the message. (Not by source: the same source can mean another thing once a later
 * definition resolves a reference link.)
 */
class Block extends Component<{ token: Token }> {
  override shouldComponentUpdate(next: { token: Token }): boolean {
    return next.token !== this.props.token;
  }
  override render({ token }: { token: Token }): ComponentChildren {
    return renderToken(token, 0);
  }
}

let instances = 0;
// The footnote labels each top-level block refers to, in order, found once per token.
const refsOf = new WeakMap<Token, readonly string[]>();

function collectRefs(tokens: readonly Token[] | undefined, into: string[]): void {
  for (const token of tokens ?? []) {
    if (token.type === 'footnoteRef') into.push(String(token.label));
    else if (token.type === 'list') for (const item of token.items) collectRefs(item.tokens, into);
    else if (token.type === 'table') {
      for (const cell of token.header) collectRefs(cell.tokens, into);
      for (const row of token.rows) for (const cell of row) collectRefs(cell.tokens, into);
    } else if (token.type !== 'footnote' && 'tokens' in token) collectRefs(token.tokens, into);
  }
}

function refs(token: Token): readonly string[] {
  let found = refsOf.get(token);
  if (!found) {
    const list: string[] = [];
    collectRefs([token], list);
    found = list;
    refsOf.set(token, found);
  }
  return found;
}

/** What a message's view keeps between renders. */
interface Kept {
  /** The latest tokens, for the text they were lexed from (a prefix while the worker works). */
  lexed: Lexed | undefined;
  /** Set once the reply is refused: it stays as written from then on. */
  refused: Refusal | null;
  /** The text the worker is lexing a part of, if any. */
  asked: string | null;
  mounted: boolean;
}

/**
 * Markdown rendered to elements: marked's tokens, lexed again only from the last blocks on
 * as the text grows (see {@link lexMarkdown}), each top-level block its own component.
 * Lexing is bounded (see {@link boundedLex}): a part too long to lex on the page's thread is
 * lexed in a worker (the text shows as written meanwhile), and a reply nested too deeply, or
 * one the worker could not lex in time, shows as written with a notice.
 */
export function MarkdownView({ text }: MarkdownViewProps) {
  const kept = useRef<Kept>({ lexed: undefined, refused: null, asked: null, mounted: true }).current;
  const [, redraw] = useState(0);
  let offThread: LexPlan | null = null;
  if (!kept.refused) {
    const outcome = boundedLex(text, kept.lexed);
    if (outcome.kind === 'lexed') kept.lexed = outcome.lexed;
    else if (outcome.kind === 'refused') kept.refused = outcome.reason;
    else offThread = outcome.plan;
  }
  useEffect(() => {
    if (!offThread || kept.asked !== null) return;
    const plan = offThread;
    kept.asked = text;
    void lexOffThread(plan.source, plan.links).then((answer) => {
      kept.asked = null;
      if (!kept.mounted) return;
      if (answer === 'slow' || answer === 'failed') kept.refused = answer === 'slow' ? 'slow' : 'broken';
      else {
        const accepted = acceptPart(text, plan, answer);
        if (accepted.kind === 'lexed') kept.lexed = accepted.lexed;
        else if (accepted.kind === 'refused') kept.refused = accepted.reason;
        // A new reference definition in a worker's part: the whole text goes next time.
        else kept.lexed = undefined;
      }
      // The text may have grown meanwhile: the next render lexes only what was added.
      redraw((n) => n + 1);
    });
  });
  useEffect(
    () => () => {
      kept.mounted = false;
    },
    [kept],
  );
  const notes = useMemo<Footnotes>(() => ({ prefix: `fn${++instances}-`, numbers: new Map() }), []);
  if (kept.refused || !kept.lexed) return <PlainReply text={text} reason={kept.refused} />;
  const { tokens } = kept.lexed;
  const definitions: FootnoteToken[] = [];
  for (const token of tokens) {
    if (token.type === 'footnote') definitions.push(token as unknown as FootnoteToken);
    // Numbers by first reference: earlier blocks never change, so neither do their numbers.
    for (const label of refs(token))
      if (!notes.numbers.has(label)) notes.numbers.set(label, notes.numbers.size + 1);
  }
  return (
    <FootnoteContext.Provider value={notes}>
      {tokens.map((token, i) => (token.type === 'space' ? null : <Block key={i} token={token} />))}
      <FootnoteList definitions={definitions} render={(d) => <>{renderTokens(d.tokens)}</>} />
    </FootnoteContext.Provider>
  );
}

/**
 * A little of everything replies contain, rendered once off-screen as soon as this chunk
 * arrives: the first use of marked's many regular expressions and of this code is several
 * times slower than the next, and the page is usually still waiting for the conversation's
 * state at that moment (idle time came too late for it).
 */
const WARM_UP =
  '## Title\n\nSome **bold**, *em*, `code`, a [link](https://example.test) and https://example.test.\n\n- one\n- two\n  - three\n\n1. first\n2. second\n\n> quote\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst x = 1;\n```\n';

{
  const element = document.createElement('div');
  render(<MarkdownView text={WARM_UP} />, element);
  render(null, element);
}

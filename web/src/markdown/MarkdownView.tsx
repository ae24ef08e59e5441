import type { Token } from 'marked';
import { Component, type ComponentChildren, render } from 'preact';
import { useMemo, useRef } from 'preact/hooks';
import type { FootnoteToken } from './extensions';
import { FootnoteContext, FootnoteList, type Footnotes } from './footnotes';
import { type Lexed, lexMarkdown } from './lexMarkdown';
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

/**
 * Markdown rendered to elements: marked's tokens, lexed again only from the last blocks on
 * as the text grows (see {@link lexMarkdown}), each top-level block its own component.
 */
export function MarkdownView({ text }: MarkdownViewProps) {
  const lexed = useRef<Lexed | undefined>(undefined);
  lexed.current = lexMarkdown(text, lexed.current);
  const { tokens } = lexed.current;
  const notes = useMemo<Footnotes>(() => ({ prefix: `fn${++instances}-`, numbers: new Map() }), []);
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

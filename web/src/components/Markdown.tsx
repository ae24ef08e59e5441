import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import { type Block, type Inline, parseMarkdown } from '../markdown/parseMarkdown';

/** Props of {@link Markdown}. */
export interface MarkdownProps {
  readonly text: string;
}

/**
 * Renders markdown as elements and text nodes only (never HTML strings), so a reply cannot
 * inject markup. Links open in a new tab with `rel="noopener noreferrer"`.
 */
export function Markdown({ text }: MarkdownProps) {
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  return <>{blocks.map(renderBlock)}</>;
}

function renderBlock(block: Block, key: number): ComponentChildren {
  switch (block.t) {
    case 'p':
      return <p key={key}>{block.c.map(renderInline)}</p>;
    case 'h': {
      const Tag = `h${Math.min(6, block.level + 2)}` as 'h3';
      return <Tag key={key}>{block.c.map(renderInline)}</Tag>;
    }
    case 'pre':
      return (
        <pre key={key} class="code-block" data-lang={block.lang || undefined}>
          <code>{block.v}</code>
        </pre>
      );
    case 'list': {
      const items = block.items.map((item, i) => <li key={i}>{item.map(renderBlock)}</li>);
      return block.ordered ? (
        <ol key={key} start={block.start}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'quote':
      return <blockquote key={key}>{block.c.map(renderBlock)}</blockquote>;
    case 'hr':
      return <hr key={key} />;
    default: {
      const never: never = block;
      return never;
    }
  }
}

function renderInline(node: Inline, key: number): ComponentChildren {
  switch (node.t) {
    case 'text':
      return node.v;
    case 'code':
      return <code key={key}>{node.v}</code>;
    case 'strong':
      return <strong key={key}>{node.c.map(renderInline)}</strong>;
    case 'em':
      return <em key={key}>{node.c.map(renderInline)}</em>;
    case 'del':
      return <del key={key}>{node.c.map(renderInline)}</del>;
    case 'link':
      return (
        <a key={key} href={node.href} target="_blank" rel="noopener noreferrer">
          {node.c.map(renderInline)}
        </a>
      );
    case 'br':
      return <br key={key} />;
    default: {
      const never: never = node;
      return never;
    }
  }
}

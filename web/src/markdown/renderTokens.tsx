import type { MarkedToken, Token, Tokens } from 'marked';
import type { ComponentChildren } from 'preact';
import { CodeBlock } from '../components/CodeBlock';
import { MathView } from '../components/MathView';
import { useT } from '../i18n/I18nContext';
import { decodeEntities } from './decodeEntities';
import type { FootnoteRefToken, FootnoteToken, MathToken } from './extensions';
import { FootnoteRef } from './footnotes';
import { safeHref } from './safeHref';

/** Every token this renderer knows: marked's own and the footnote and math extensions'. */
type AnyToken = MarkedToken | FootnoteToken | FootnoteRefToken | MathToken;

/**
 * Whether a fenced block has its closing fence (a block still streaming has not). An
 * indented block is complete when something follows it, which the caller knows.
 */
function fenceClosed(token: Tokens.Code): boolean {
  if (token.codeBlockStyle === 'indented') return true;
  const lines = token.raw.trimEnd().split('\n');
  const open = /^ {0,3}(`{3,}|~{3,})/.exec(lines[0] ?? '')?.[1];
  const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(lines.at(-1) ?? '')?.[1];
  return lines.length >= 2 && !!open && !!close && close[0] === open[0] && close.length >= open.length;
}

/** Renders a list of tokens (blocks or inlines). */
export function renderTokens(tokens: readonly Token[] | undefined): ComponentChildren {
  return tokens?.map((token, i) => renderToken(token, i));
}

/**
 * Renders one token as elements and text nodes, never as an HTML string: raw HTML in a reply
 * shows as the text it is, and a link opens only for http, https and mailto targets.
 */
export function renderToken(raw: Token, key: number): ComponentChildren {
  const token = raw as AnyToken;
  switch (token.type) {
    case 'space':
    case 'def':
    case 'footnote':
      // Definitions render where they are used (links) or at the end (footnotes).
      return null;
    case 'paragraph':
      return <p key={key}>{renderTokens(token.tokens)}</p>;
    case 'heading': {
      // A reply's headings sit under the page's own (h1 title, h2 sections).
      const Tag = `h${Math.min(6, token.depth + 2)}` as 'h3';
      return <Tag key={key}>{renderTokens(token.tokens)}</Tag>;
    }
    case 'code':
      return (
        <CodeBlock key={key} code={token.text} lang={codeLang(token.lang)} complete={fenceClosed(token)} />
      );
    case 'blockquote':
      return <blockquote key={key}>{renderTokens(token.tokens)}</blockquote>;
    case 'hr':
      return <hr key={key} />;
    case 'list': {
      const items = token.items.map((item, i) => renderToken(item, i));
      if (!token.ordered)
        return (
          <ul key={key} class={taskList(token) ? 'task-list' : undefined}>
            {items}
          </ul>
        );
      return (
        <ol key={key} start={token.start === '' || token.start === 1 ? undefined : token.start}>
          {items}
        </ol>
      );
    }
    case 'list_item':
      return (
        <li key={key} class={token.task ? 'task' : undefined}>
          {renderTokens(token.tokens)}
        </li>
      );
    case 'checkbox':
      return <TaskBox key={key} checked={token.checked} />;
    case 'table':
      return (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a wide table scrolls sideways, and a keyboard must reach it (axe: scrollable-region-focusable)
        <div key={key} class="table-wrap" tabIndex={0}>
          <table>
            <thead>
              <tr>
                {token.header.map((cell, i) => (
                  <th key={i} style={cell.align ? { textAlign: cell.align } : undefined}>
                    {renderTokens(cell.tokens)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {token.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, i) => (
                    <td key={i} style={cell.align ? { textAlign: cell.align } : undefined}>
                      {renderTokens(cell.tokens)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'html':
      // Raw HTML is shown as written: nothing in a reply becomes markup.
      return token.block ? <p key={key}>{token.raw.trimEnd()}</p> : token.raw;
    case 'text':
      return token.tokens ? renderTokens(token.tokens) : decodeEntities(token.text);
    case 'escape':
      return token.text;
    case 'strong':
      return <strong key={key}>{renderTokens(token.tokens)}</strong>;
    case 'em':
      return <em key={key}>{renderTokens(token.tokens)}</em>;
    case 'del':
      return <del key={key}>{renderTokens(token.tokens)}</del>;
    case 'codespan':
      return <code key={key}>{token.text}</code>;
    case 'br':
      return <br key={key} />;
    case 'link': {
      const href = safeHref(token.href);
      const children = token.autolink ? token.text : renderTokens(token.tokens);
      if (!href) return <UnsafeLink key={key}>{children}</UnsafeLink>;
      return (
        <a key={key} href={href} title={token.title ?? undefined} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      );
    }
    case 'image': {
      // Images are not loaded from a reply (the page's policy allows this origin only): the
      // alternative text links to the image instead.
      const href = safeHref(token.href);
      const label = `[image: ${decodeEntities(token.text) || 'untitled'}]`;
      return href ? (
        <a key={key} href={href} target="_blank" rel="noopener noreferrer" class="image-link">
          {label}
        </a>
      ) : (
        label
      );
    }
    case 'footnoteRef':
      return <FootnoteRef key={key} label={token.label} />;
    case 'math':
      return <MathView key={key} tex={token.tex} display={token.display} />;
    default: {
      const never: never = token;
      return (never as Token).raw;
    }
  }
}

function codeLang(lang: string | undefined): string {
  return (
    (lang ?? '')
      .trim()
      .split(/\s/)[0]
      ?.replace(/[^\w+#.-]/g, '') ?? ''
  );
}

/** A task list's box, named in the page's language. */
function TaskBox({ checked }: { readonly checked: boolean }) {
  const t = useT();
  return (
    <input type="checkbox" checked={checked} disabled aria-label={t(checked ? 'taskDone' : 'taskNotDone')} />
  );
}

/** A link that is not opened (not http, https or mail), saying why in the page's language. */
function UnsafeLink({ children }: { readonly children: ComponentChildren }) {
  const t = useT();
  return (
    <span class="unsafe-link" title={t('unsafeLink')}>
      {children}
    </span>
  );
}

function taskList(list: Tokens.List): boolean {
  return list.items.some((item) => item.task);
}

import type { Token, TokenizerExtensionFunction, TokenizerStartFunction, Tokens } from 'marked';

/** A footnote definition, `[^label]: text` (rendered in the list at the end of the message). */
export interface FootnoteToken {
  readonly type: 'footnote';
  readonly raw: string;
  readonly label: string;
  readonly tokens: Token[];
}

/** A footnote reference, `[^label]`. */
export interface FootnoteRefToken {
  readonly type: 'footnoteRef';
  readonly raw: string;
  readonly label: string;
}

/** TeX between `$…$` (inline) or `$$…$$` (display, inline or on lines of its own). */
export interface MathToken {
  readonly type: 'math';
  readonly raw: string;
  readonly tex: string;
  readonly display: boolean;
}

const FOOTNOTE_DEF =
  /^ {0,3}\[\^([^\]\s]{1,64})\]:[ \t]*([^\n]*(?:\n|$)(?:(?:[ \t]*\n)*(?: {2,}|\t)[^\n]*(?:\n|$))*)/;
const FOOTNOTE_REF = /^\[\^([^\]\s]{1,64})\]/;
const MATH_BLOCK = /^ {0,3}\$\$([\s\S]+?)\$\$[ \t]*(?:\n+|$)/;
// `$5 and $10` is money, not math: no space inside the dollars, no digit after the closing one.
const MATH_INLINE = /^\$\$(?!\s)([^$]+?)\$\$|^\$(?!\s)((?:\\[\s\S]|[^\\\n$])+?)(?<!\s)\$(?!\d)/;

const footnote: TokenizerExtensionFunction = function (src) {
  const match = FOOTNOTE_DEF.exec(src);
  if (!match) return undefined;
  const body = (match[2] ?? '').replace(/^(?: {1,4}|\t)/gm, '');
  const token: FootnoteToken = {
    type: 'footnote',
    raw: match[0],
    label: match[1] ?? '',
    tokens: this.lexer.blockTokens(body, []),
  };
  return token as unknown as Tokens.Generic;
};

const footnoteRef: TokenizerExtensionFunction = (src) => {
  const match = FOOTNOTE_REF.exec(src);
  if (!match) return undefined;
  const token: FootnoteRefToken = { type: 'footnoteRef', raw: match[0], label: match[1] ?? '' };
  return token as unknown as Tokens.Generic;
};

const mathBlock: TokenizerExtensionFunction = (src) => {
  const match = MATH_BLOCK.exec(src);
  if (!match) return undefined;
  const token: MathToken = { type: 'math', raw: match[0], tex: (match[1] ?? '').trim(), display: true };
  return token as unknown as Tokens.Generic;
};

const mathInline: TokenizerExtensionFunction = (src) => {
  const match = MATH_INLINE.exec(src);
  if (!match) return undefined;
  const display = match[1] !== undefined;
  const tex = (display ? match[1] : match[2]) ?? '';
  const token: MathToken = { type: 'math', raw: match[0], tex: tex.trim(), display };
  return token as unknown as Tokens.Generic;
};

// The start functions let a paragraph or a run of text stop where an extension may begin.
const startBlock: TokenizerStartFunction = (src) => {
  // Only within the current paragraph (a blank line ends it anyway): scanning the rest of the
  // message for every paragraph made a long message quadratic.
  const end = src.indexOf('\n\n');
  const match = /^ {0,3}(?:\[\^[^\]\s]+\]:|\$\$)/m.exec(end < 0 ? src : src.slice(0, end));
  return match ? match.index : undefined;
};

const startInline: TokenizerStartFunction = (src) => {
  const dollar = src.indexOf('$');
  const ref = src.indexOf('[^');
  if (dollar < 0) return ref < 0 ? undefined : ref;
  return ref < 0 ? dollar : Math.min(dollar, ref);
};

/**
 * marked's processed extension table (what `marked.use` would build), given to the Lexer
 * directly so the page carries no HTML renderer that it would never call.
 */
export const EXTENSIONS = {
  renderers: {},
  childTokens: {},
  block: [footnote, mathBlock],
  inline: [footnoteRef, mathInline],
  startBlock: [startBlock],
  startInline: [startInline],
};

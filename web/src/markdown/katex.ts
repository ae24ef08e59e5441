import 'katex/dist/katex.min.css';
import katex from 'katex';

/**
 * KaTeX with its stylesheet and fonts, served by the app (Vite copies the fonts into
 * dist/assets); loaded on demand, never with the page.
 */

/**
 * Typesets `tex` into `element`. KaTeX builds DOM nodes itself (no HTML string) and sets
 * styles through the CSSOM, which the page's `style-src 'self'` allows. `trust` stays off,
 * so `\href`, `\url` and `\includegraphics` are refused; errors show in red, never throw.
 */
export function typeset(tex: string, element: HTMLElement, display: boolean): void {
  katex.render(tex, element, {
    displayMode: display,
    throwOnError: false,
    trust: false,
    strict: 'ignore',
    maxSize: 50,
    maxExpand: 500,
    output: 'htmlAndMathml',
  });
}

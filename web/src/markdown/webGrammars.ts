/**
 * The grammars of the web's languages in one chunk: JavaScript and TypeScript embed CSS, GraphQL
 * and HTML (templates), HTML embeds CSS and JavaScript, so a block in any of them needs all four
 * (grammars.ts). Fetched as one chunk instead of four, a TypeScript block took 3 requests rather
 * than 6, each of which costs a throttled phone's main thread (tests/bench/highlightOneBlock.ts).
 */
export { default as css } from 'highlight.js/lib/languages/css';
export { default as graphql } from 'highlight.js/lib/languages/graphql';
export { default as javascript } from 'highlight.js/lib/languages/javascript';
export { default as xml } from 'highlight.js/lib/languages/xml';

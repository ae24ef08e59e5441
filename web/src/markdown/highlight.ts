import { common, createLowlight } from 'lowlight';

/**
 * lowlight with highlight.js's 37 common grammars (bash, c, cpp, csharp, css, diff, go,
 * graphql, ini/toml, java, javascript, json, kotlin, less, lua, makefile, markdown,
 * objectivec, perl, php, python, r, ruby, rust, scss, shell, sql, swift, typescript, vbnet,
 * wasm, xml/html, yaml, …). This module is loaded on demand, never with the page.
 */
const lowlight = createLowlight(common);

/** The hast tree of `code` highlighted as `lang`, or null when the language is unknown. */
export function highlight(code: string, lang: string) {
  const name = lang.toLowerCase();
  if (!name || !lowlight.registered(name)) return null;
  return lowlight.highlight(name, code);
}

/** Every language name and alias that {@link highlight} knows. */
export function languages(): string[] {
  return lowlight.listLanguages();
}

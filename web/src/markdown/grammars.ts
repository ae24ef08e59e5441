import type { LanguageFn } from 'highlight.js';

/** One highlight.js grammar: how to load it, the names it answers to, the grammars it embeds. */
export interface Grammar {
  /** Its own chunk, loaded the first time a block or a diff in this language is highlighted. */
  readonly load: () => Promise<{ readonly default: LanguageFn }>;
  /** Other names highlight.js knows it by (`py`, `ts`, `yml`, file extensions, …). */
  readonly aliases: readonly string[];
  /**
   * Grammars it hands parts of its text to (`subLanguage`): `<script>` in HTML, css`…` in
   * JavaScript. Without them that text comes out plain, unlike with every grammar registered.
   * Names of {@link GRAMMARS} (a `string`: their type comes from the table itself).
   */
  readonly uses?: readonly string[];
}

/**
 * highlight.js's 37 `common` grammars (lowlight's `common`, which the page registered all at
 * at once before: ~900 ms of one task at 25× CPU throttle), each its own chunk but for css,
 * graphql, javascript and xml, which need one another and share one (webGrammars.ts). Aliases and `uses`
 * are what each grammar declares (aliases; `subLanguage` in its modes), checked against the
 * grammars themselves by grammars.test.ts.
 */
export const GRAMMARS = {
  arduino: { load: () => import('highlight.js/lib/languages/arduino'), aliases: ['ino'] },
  bash: { load: () => import('highlight.js/lib/languages/bash'), aliases: ['sh', 'zsh'] },
  c: { load: () => import('highlight.js/lib/languages/c'), aliases: ['h'] },
  cpp: {
    load: () => import('highlight.js/lib/languages/cpp'),
    aliases: ['cc', 'c++', 'h++', 'hpp', 'hh', 'hxx', 'cxx'],
  },
  csharp: { load: () => import('highlight.js/lib/languages/csharp'), aliases: ['cs', 'c#'] },
  css: { load: () => import('./webGrammars').then(({ css }) => ({ default: css })), aliases: [] },
  diff: { load: () => import('highlight.js/lib/languages/diff'), aliases: ['patch'] },
  go: { load: () => import('highlight.js/lib/languages/go'), aliases: ['golang'] },
  graphql: {
    load: () => import('./webGrammars').then(({ graphql }) => ({ default: graphql })),
    aliases: ['gql'],
  },
  ini: { load: () => import('highlight.js/lib/languages/ini'), aliases: ['toml'] },
  java: { load: () => import('highlight.js/lib/languages/java'), aliases: ['jsp'] },
  javascript: {
    load: () => import('./webGrammars').then(({ javascript }) => ({ default: javascript })),
    aliases: ['js', 'jsx', 'mjs', 'cjs'],
    uses: ['css', 'graphql', 'xml'],
  },
  json: { load: () => import('highlight.js/lib/languages/json'), aliases: ['jsonc', 'json5'] },
  kotlin: { load: () => import('highlight.js/lib/languages/kotlin'), aliases: ['kt', 'kts'] },
  less: { load: () => import('highlight.js/lib/languages/less'), aliases: [] },
  lua: { load: () => import('highlight.js/lib/languages/lua'), aliases: ['pluto'] },
  makefile: { load: () => import('highlight.js/lib/languages/makefile'), aliases: ['mk', 'mak', 'make'] },
  markdown: {
    load: () => import('highlight.js/lib/languages/markdown'),
    aliases: ['md', 'mkdown', 'mkd'],
    uses: ['xml'],
  },
  objectivec: {
    load: () => import('highlight.js/lib/languages/objectivec'),
    aliases: ['mm', 'objc', 'obj-c', 'obj-c++', 'objective-c++'],
  },
  perl: { load: () => import('highlight.js/lib/languages/perl'), aliases: ['pl', 'pm'] },
  php: { load: () => import('highlight.js/lib/languages/php'), aliases: [] },
  'php-template': {
    load: () => import('highlight.js/lib/languages/php-template'),
    aliases: [],
    uses: ['php', 'xml'],
  },
  plaintext: { load: () => import('highlight.js/lib/languages/plaintext'), aliases: ['text', 'txt'] },
  python: { load: () => import('highlight.js/lib/languages/python'), aliases: ['py', 'gyp', 'ipython'] },
  'python-repl': {
    load: () => import('highlight.js/lib/languages/python-repl'),
    aliases: ['pycon'],
    uses: ['python'],
  },
  r: { load: () => import('highlight.js/lib/languages/r'), aliases: [] },
  ruby: {
    load: () => import('highlight.js/lib/languages/ruby'),
    aliases: ['rb', 'gemspec', 'podspec', 'thor', 'irb'],
  },
  rust: { load: () => import('highlight.js/lib/languages/rust'), aliases: ['rs'] },
  scss: { load: () => import('highlight.js/lib/languages/scss'), aliases: [] },
  shell: {
    load: () => import('highlight.js/lib/languages/shell'),
    aliases: ['console', 'shellsession'],
    uses: ['bash'],
  },
  sql: { load: () => import('highlight.js/lib/languages/sql'), aliases: [] },
  swift: { load: () => import('highlight.js/lib/languages/swift'), aliases: [] },
  typescript: {
    load: () => import('highlight.js/lib/languages/typescript'),
    aliases: ['ts', 'tsx', 'mts', 'cts'],
    uses: ['css', 'graphql', 'xml'],
  },
  vbnet: { load: () => import('highlight.js/lib/languages/vbnet'), aliases: ['vb'] },
  wasm: { load: () => import('highlight.js/lib/languages/wasm'), aliases: [] },
  xml: {
    load: () => import('./webGrammars').then(({ xml }) => ({ default: xml })),
    aliases: ['html', 'xhtml', 'rss', 'atom', 'xjb', 'xsd', 'xsl', 'plist', 'wsf', 'svg'],
    // Its <script> also names handlebars, which is not among these: plain there, as before.
    uses: ['css', 'javascript'],
  },
  yaml: { load: () => import('highlight.js/lib/languages/yaml'), aliases: ['yml'], uses: ['ruby'] },
} as const satisfies Record<string, Grammar>;

/** The name of one of {@link GRAMMARS}. */
export type GrammarName = keyof typeof GRAMMARS;

/** Each name and alias, lower-cased, to its grammar. */
let byAlias: Map<string, GrammarName> | undefined;

/** The grammar `lang` names (any case, a name or an alias), or undefined for an unknown one. */
export function grammarOf(lang: string): GrammarName | undefined {
  if (!byAlias) {
    byAlias = new Map();
    for (const [name, grammar] of Object.entries(GRAMMARS) as [GrammarName, Grammar][]) {
      byAlias.set(name, name);
      for (const alias of grammar.aliases) byAlias.set(alias, name);
    }
  }
  return byAlias.get(lang.toLowerCase());
}

/** `name` and every grammar it needs, directly or through another ({@link Grammar.uses}). */
export function grammarsFor(name: GrammarName): GrammarName[] {
  const needed = new Set<GrammarName>([name]);
  for (const each of needed)
    for (const used of (GRAMMARS[each] as Grammar).uses ?? []) needed.add(used as GrammarName);
  return [...needed];
}

import type { LanguageFn } from 'highlight.js';
import { GRAMMARS, type Grammar, type GrammarName, grammarOf, grammarsFor } from './grammars';
import type { Highlighter } from './highlight';

export type { Highlighter } from './highlight';

/** Loads a highlighter able to colour `lang`, or null: see {@link createHighlighterLoader}. */
export type HighlighterLoader = (lang: string) => Promise<Highlighter | null>;

/**
 * A loader of highlighting by language: for `lang`, the highlighter (its own chunk, loaded once)
 * with `lang`'s grammar and those it embeds registered, each grammar a chunk loaded the first
 * time one needs it. Null, never a rejection, for an unknown language or when a chunk failed to
 * load (the text stays plain; a later call tries that chunk again).
 * `core` and `grammars` are parameters for tests (a fresh lowlight, a chunk that fails).
 */
export function createHighlighterLoader(
  core: () => Promise<Highlighter>,
  grammars: Readonly<Record<GrammarName, Grammar>> = GRAMMARS,
): HighlighterLoader {
  let highlighter: Promise<Highlighter> | undefined;
  const loading = new Map<GrammarName, Promise<LanguageFn>>();
  const loadGrammar = (name: GrammarName) => {
    let grammar = loading.get(name);
    if (!grammar) {
      const started = grammars[name].load().then((module) => module.default);
      // A chunk that failed (a dropped connection) is asked for again next time.
      started.catch(() => loading.get(name) === started && loading.delete(name));
      loading.set(name, started);
      grammar = started;
    }
    return grammar;
  };
  return async (lang) => {
    const name = grammarOf(lang);
    if (!name) return null;
    if (!highlighter) {
      const started = core();
      started.catch(() => {
        if (highlighter === started) highlighter = undefined;
      });
      highlighter = started;
    }
    const needed = grammarsFor(name);
    try {
      // The core and the grammars load side by side, not one after the other.
      const [loaded, ...fns] = await Promise.all([highlighter, ...needed.map(loadGrammar)]);
      loaded.register(Object.fromEntries(needed.map((each, i) => [each, fns[i] as LanguageFn])));
      return loaded;
    } catch {
      return null;
    }
  };
}

/**
 * The page's highlighter, loaded on demand for the language a finished code block or a diff
 * needs: the core chunk (lowlight, ~9 KiB gzip) and that language's grammars only.
 */
export const loadHighlighter: HighlighterLoader = createHighlighterLoader(() =>
  import('./highlight').then(({ createHighlighter }) => createHighlighter()),
);

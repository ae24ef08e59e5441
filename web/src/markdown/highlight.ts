import type { LanguageFn } from 'highlight.js';
import { createLowlight } from 'lowlight';

/** lowlight with the grammars registered so far (see loadHighlighter.ts): highlights, never loads. */
export interface Highlighter {
  /** The hast tree of `code` highlighted as `lang`, or null when its grammar is not registered. */
  highlight(code: string, lang: string): ReturnType<ReturnType<typeof createLowlight>['highlight']> | null;
  /** Adds grammars by name; one already registered stays as it is. */
  register(grammars: Readonly<Record<string, LanguageFn>>): void;
}

/**
 * A lowlight with no grammar: each is its own chunk, registered when a block or a diff needs it
 * (loadHighlighter.ts). This module, lowlight and highlight.js's core, is its own chunk too,
 * loaded on demand, never with the page.
 */
export function createHighlighter(): Highlighter {
  const lowlight = createLowlight();
  return {
    highlight(code, lang) {
      const name = lang.toLowerCase();
      if (!name || !lowlight.registered(name)) return null;
      return lowlight.highlight(name, code);
    },
    register(grammars) {
      for (const [name, grammar] of Object.entries(grammars))
        if (!lowlight.registered(name)) lowlight.register(name, grammar);
    },
  };
}

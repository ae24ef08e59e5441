import hljs from 'highlight.js/lib/core';
import { common } from 'lowlight';
import { describe, expect, it } from 'vitest';
import { GRAMMARS, type Grammar, type GrammarName, grammarOf, grammarsFor } from './grammars';

/** The other grammars a grammar's modes hand text to (`subLanguage`), found by walking them. */
function subLanguagesOf(mode: unknown): Set<string> {
  const found = new Set<string>();
  const seen = new Set<object>();
  const walk = (value: unknown) => {
    if (typeof value !== 'object' || value === null || value instanceof RegExp || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) return value.forEach(walk);
    const { subLanguage } = value as { subLanguage?: string | string[] };
    for (const name of typeof subLanguage === 'string' ? [subLanguage] : (subLanguage ?? [])) found.add(name);
    Object.values(value).forEach(walk);
  };
  walk(mode);
  return found;
}

const names = Object.keys(common) as GrammarName[];
function grammarFn(name: string) {
  const grammar = common[name];
  if (!grammar) throw new Error(`no grammar ${name}`);
  return grammar;
}
const table = GRAMMARS as Readonly<Record<GrammarName, Grammar>>;

describe('GRAMMARS', () => {
  it("has lowlight's common grammars, each loading that very grammar", async () => {
    expect(Object.keys(GRAMMARS).sort()).toEqual([...names].sort());
    for (const name of names) expect((await table[name].load()).default, name).toBe(common[name]);
  });

  it('has the aliases each grammar declares, and maps every name and alias to it in any case', () => {
    for (const name of names) {
      const declared = grammarFn(name)(hljs).aliases ?? [];
      expect(table[name].aliases, name).toEqual(declared);
      for (const alias of [name, ...declared]) {
        expect(grammarOf(alias), alias).toBe(name);
        expect(grammarOf(alias.toUpperCase()), alias).toBe(name);
      }
    }
    for (const lang of ['', 'no-such-language', 'handlebars', 'constructor', '__proto__'])
      expect(grammarOf(lang), lang).toBeUndefined();
  });

  it("lists the grammars each one's modes hand text to, among the common ones", () => {
    for (const name of names) {
      const used = [...subLanguagesOf(grammarFn(name)(hljs))].filter((sub) => sub !== name && sub in common);
      expect([...(table[name].uses ?? [])].sort(), name).toEqual(used.sort());
    }
  });

  it('needs, for a language, its grammar and every grammar it embeds, through others too', () => {
    expect(grammarsFor('python')).toEqual(['python']);
    expect(grammarsFor('markdown').sort()).toEqual(['css', 'graphql', 'javascript', 'markdown', 'xml']);
    expect(grammarsFor('php-template').sort()).toEqual([
      'css',
      'graphql',
      'javascript',
      'php',
      'php-template',
      'xml',
    ]);
  });
});

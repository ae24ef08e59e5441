import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { en } from './catalogues/en';

const src = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Every .tsx file of the page: the components and what they render. */
function sources(): { file: string; text: string }[] {
  const found: { file: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'mocks') walk(full);
      } else if (entry.name.endsWith('.tsx'))
        found.push({ file: path.relative(src, full), text: readFileSync(full, 'utf8') });
    }
  };
  walk(src);
  return found;
}

/** Words a person reads that are the same in every language: names and symbols. */
const SAME_IN_EVERY_LANGUAGE = new Set(['webbridge', 'MCP', 'text', 'Ctrl', 'Esc', 'Enter', 'Shift']);

/** Text in JSX a person would read: between tags, or in a label, title or placeholder attribute. */
function hardCoded(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found: string[] = [];
  for (const m of code.matchAll(/(?<!=)>([^<>{}`]*?[A-Za-z]{2,}[^<>{}`]*?)</g)) {
    const words = m[1]?.trim() ?? '';
    // `a => b` and generics look like tags to a regex; real text has no `=`, `(` or `;`.
    if (words === '' || /[=();&|]/.test(words)) continue;
    if (words.split(/\W+/).every((word) => word === '' || SAME_IN_EVERY_LANGUAGE.has(word))) continue;
    found.push(words);
  }
  for (const m of code.matchAll(/\b(aria-label|title|placeholder|alt|label)="([^"]*[A-Za-z]{2,}[^"]*)"/g)) {
    found.push(`${m[1]}="${m[2]}"`);
  }
  for (const m of code.matchAll(/\b(aria-label|title|placeholder|alt|label)=\{`([^`]*)`\}/g)) {
    if (/[A-Za-z]{2,}/.test(m[2]?.replace(/\$\{[^}]*\}/g, '') ?? '')) found.push(`${m[1]}={\`${m[2]}\`}`);
  }
  for (const m of code.matchAll(
    /\b(aria-label|title|placeholder|alt|label)=\{[^}]*?'([^']*[A-Za-z]{2,}[^']*)'/g,
  )) {
    // A key (`t('copyCode')`) is an identifier; what a person reads has capitals or spaces.
    if (/^[A-Z]|\s/.test(m[2] ?? '') && !((m[2] ?? '') in en)) found.push(`${m[1]}={… '${m[2]}' …}`);
  }
  return found;
}

describe('UI strings', () => {
  it('components say nothing in English that is not in the catalogue', () => {
    const offenders = sources().flatMap(({ file, text }) =>
      hardCoded(text).map((words) => `${file}: ${words}`),
    );
    expect(offenders).toEqual([]);
  });

  it("every t('key') names a key of the catalogue", () => {
    const unknown: string[] = [];
    for (const { file, text } of sources()) {
      for (const m of text.matchAll(/\bt\(\s*'([^']+)'/g)) {
        if (!(m[1] && m[1] in en)) unknown.push(`${file}: ${m[1]}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});

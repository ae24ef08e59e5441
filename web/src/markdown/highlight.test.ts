import { common, createLowlight } from 'lowlight';
import { describe, expect, it } from 'vitest';
import { hastToPreact } from '../render/hastToPreact';
import { GRAMMARS } from './grammars';
import { createHighlighter } from './highlight';
import { createHighlighterLoader } from './loadHighlighter';

/** What the page highlighted with before: every common grammar registered at once. */
const before = createLowlight(common);

/** A fresh page's loader: nothing registered, nothing loaded yet. */
const freshLoader = () => createHighlighterLoader(async () => createHighlighter());

/** Text that reaches into other grammars (script, style, templates, a REPL, ERB, …). */
const SAMPLES: Record<string, string> = {
  html: '<!doctype html>\n<style>a { color: red; }</style>\n<script>const x = `<b>bold</b>`; query(gql`{ a }`);</script>\n<p class="x">Hi &amp; bye</p>',
  markdown: '# Title\n\nSome *text* with <span style="color:red">html</span>.\n\n```js\nlet a = 1;\n```\n',
  ts: 'const style = css`a { color: red; }`;\nconst q = gql`query { a }`;\nconst t = html`<p class="a">x</p>`;\nexport function f(a: number): string { return `a`; }',
  jsx: 'export const A = () => <div className="a" onClick={() => go(1)}>{"hi"}</div>;',
  'php-template': '<html><?php echo $x; ?><script>let a = 1;</script></html>',
  pycon: '>>> def f(x):\n...     return x + 1\n>>> f(1)\n2',
  console: '$ ls -la | grep "x"\nfile.txt\n$ echo $HOME',
  yaml: 'key: value\nlist:\n  - 1\n  - "two"\nerb: <%= foo.bar %>\n',
  xml: '<?xml version="1.0"?>\n<root a="1"><![CDATA[x]]><!-- c --></root>',
  svg: '<svg><style>rect { fill: blue; }</style><rect width="1"/></svg>',
};
/** One text for every other grammar: a bit of each common syntax. */
const ANY = [
  '#include <stdio.h>',
  'def main(args: list) -> int:  # comment',
  'fn main() { let x = "str"; println!("{}", x); } // done',
  'SELECT a, b FROM t WHERE c = 1;',
  '[section]\nkey = "value"',
  '<div class="x">text</div>',
  '$var = @array; my %h = (a => 1);',
  'if [ -f "$1" ]; then echo ok; fi',
  '- item\n+ added\n@@ -1,2 +1,2 @@',
].join('\n');

describe('highlight on demand', () => {
  it('gives, for every name, alias and sample, the very tree all common grammars gave', async () => {
    const langs = [
      ...Object.keys(SAMPLES),
      ...Object.entries(GRAMMARS).flatMap(([name, { aliases }]) => [name, ...aliases]),
    ];
    for (const lang of langs) {
      // Fresh for each language: what one needs must load with it, not be left by another.
      const loaded = await freshLoader()(lang);
      const code = SAMPLES[lang] ?? ANY;
      expect(loaded, lang).not.toBeNull();
      expect(loaded?.highlight(code, lang), lang).toEqual(before.highlight(lang, code));
    }
  });

  it('gives a tree of spans with class names, which becomes elements (never an HTML string)', async () => {
    const tree = (await freshLoader()('TypeScript'))?.highlight('const a = "<b>";', 'TypeScript') ?? null;
    expect(JSON.stringify(tree)).toContain('hljs-keyword');
    const nodes = hastToPreact(tree ?? { type: 'root' }) as unknown[];
    expect(JSON.stringify(nodes)).toContain('<b>');
    expect(JSON.stringify(nodes)).not.toContain('&lt;');
  });

  it('loads only the grammars a language needs, each once, the core once', async () => {
    const asked: string[] = [];
    let cores = 0;
    const watched = Object.fromEntries(
      Object.entries(GRAMMARS).map(([name, grammar]) => [
        name,
        {
          ...grammar,
          load: () => {
            asked.push(name);
            return grammar.load();
          },
        },
      ]),
    ) as unknown as typeof GRAMMARS;
    const load = createHighlighterLoader(async () => {
      cores++;
      return createHighlighter();
    }, watched);
    const python = await load('py');
    expect(asked).toEqual(['python']);
    expect(python?.highlight('def f(): pass', 'py')).not.toBeNull();
    // Not loaded yet: plain, as with an unknown language.
    expect(python?.highlight('let a = 1', 'rust')).toBeNull();
    await Promise.all([load('html'), load('xml')]);
    expect(asked.sort()).toEqual(['css', 'graphql', 'javascript', 'python', 'xml']);
    expect(cores).toBe(1);
  });

  it('leaves unknown languages alone, loading nothing', async () => {
    let cores = 0;
    const load = createHighlighterLoader(async () => {
      cores++;
      return createHighlighter();
    });
    expect(await load('no-such-language')).toBeNull();
    expect(await load('')).toBeNull();
    expect(cores).toBe(0);
  });

  it("gives null, not a rejection, when a grammar's chunk fails, and loads it again next time", async () => {
    let fail = true;
    const flaky = {
      ...GRAMMARS,
      css: {
        ...GRAMMARS.css,
        load: () => (fail ? Promise.reject(new Error('chunk failed')) : GRAMMARS.css.load()),
      },
    } as unknown as typeof GRAMMARS;
    const load = createHighlighterLoader(async () => createHighlighter(), flaky);
    // html needs css (its <style>): without it, html is not coloured at all rather than half.
    expect(await load('html')).toBeNull();
    expect((await load('python'))?.highlight('html', '<p></p>')).toBeNull();
    fail = false;
    const html = await load('html');
    expect(html?.highlight('<style>a{}</style>', 'html')).toEqual(
      before.highlight('html', '<style>a{}</style>'),
    );
  });

  it('gives null when the core chunk fails, and loads it again next time', async () => {
    let fail = true;
    const load = createHighlighterLoader(async () => {
      if (fail) throw new Error('chunk failed');
      return createHighlighter();
    });
    expect(await load('go')).toBeNull();
    fail = false;
    expect((await load('go'))?.highlight('package main', 'go')).not.toBeNull();
  });
});

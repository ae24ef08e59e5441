import { describe, expect, it } from 'vitest';
import { hastToPreact } from '../render/hastToPreact';
import { highlight, languages } from './highlight';

describe('highlight', () => {
  it('knows at least 20 common languages, by name and by the usual aliases', () => {
    const known = languages();
    expect(known.length).toBeGreaterThanOrEqual(20);
    for (const name of [
      'js',
      'ts',
      'py',
      'sh',
      'bash',
      'json',
      'yaml',
      'yml',
      'html',
      'xml',
      'css',
      'sql',
      'go',
      'rust',
      'java',
      'kotlin',
      'c',
      'cpp',
      'csharp',
      'ruby',
      'php',
      'swift',
      'diff',
      'markdown',
      'toml',
    ])
      expect(highlight('x', name), name).not.toBeNull();
  });

  it('gives a tree of spans with class names, which becomes elements (never an HTML string)', () => {
    const tree = highlight('const a = "<b>";', 'TypeScript');
    expect(JSON.stringify(tree)).toContain('hljs-keyword');
    const nodes = hastToPreact(tree ?? { type: 'root' }) as unknown[];
    expect(JSON.stringify(nodes)).toContain('<b>');
    expect(JSON.stringify(nodes)).not.toContain('&lt;');
  });

  it('leaves unknown languages alone', () => {
    expect(highlight('x', 'no-such-language')).toBeNull();
    expect(highlight('x', '')).toBeNull();
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/** A short, stable hash of a text (FNV-1a, 32 bits, hex). */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/**
 * Fills the service worker copied from `public/sw.js` with this build: `SHELL`, the files the
 * first paint needs (the entry chunk, its static imports and their CSS), and `BUILD`, a hash of
 * every emitted file name (they carry content hashes) and of the public files the worker keeps.
 * Lazy chunks (markdown, highlighting, KaTeX) are stored when first fetched.
 */
export function shellPlugin(): Plugin {
  return {
    name: 'webbridge:service-worker-shell',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      const shell = new Set<string>();
      const visit = (fileName: string) => {
        const item = bundle[fileName];
        // Relative to the worker (which lives beside them), so a base path needs nothing.
        if (item?.type !== 'chunk' || shell.has(fileName)) return;
        shell.add(fileName);
        for (const css of item.viteMetadata?.importedCss ?? []) shell.add(css);
        for (const imported of item.imports) visit(imported);
      };
      for (const item of Object.values(bundle))
        if (item.type === 'chunk' && item.isEntry) visit(item.fileName);
      const worker = join(outDir, 'sw.js');
      const source = readFileSync(worker, 'utf8');
      const publicFiles = ['manifest.webmanifest', 'offline.html', 'offline.css', 'offline.js']
        .map((name) => readFileSync(join(outDir, name), 'utf8'))
        .join('\n');
      const build = hash([...Object.keys(bundle)].sort().join('\n') + publicFiles);
      const filled = source
        .replace("const BUILD = 'dev';", `const BUILD = '${build}';`)
        .replace('const SHELL = [];', `const SHELL = ${JSON.stringify([...shell])};`);
      if (filled === source) throw new Error('public/sw.js no longer has the BUILD and SHELL lines to fill');
      writeFileSync(worker, filled);
    },
  };
}

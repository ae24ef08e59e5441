// Proves the built page carries no server code: `web never imports server` (DESIGN.md) holds
// for what ships, while the dev server and the unit tests run the real bridge (src/mocks).
// Every string literal of 24+ characters in server/src (tests aside) that the page's own
// packages (contract, client-sdk, web) do not also write is a marker; the build's scripts must
// contain none of them, nor a Node built-in import. Run after `vite build` (`pnpm build` does).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const here = new URL('..', import.meta.url).pathname;
const serverSrc = join(here, '..', 'server', 'src');
const dist = join(here, 'dist');

const files = (dir, test) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));

const markers = new Set();
for (const file of files(serverSrc, (name) => name.endsWith('.ts') && !/\.test(ing)?\.ts$/.test(name))) {
  for (const [, text] of readFileSync(file, 'utf8').matchAll(/'([^'\\\n$]{24,})'/g)) markers.add(text);
}
// A string the page's packages write themselves may be in the build legitimately.
for (const pkg of ['contract/src', 'client-sdk/src', 'web/src']) {
  for (const file of files(join(here, '..', pkg), (name) => /\.tsx?$/.test(name))) {
    const source = readFileSync(file, 'utf8');
    for (const marker of markers) if (source.includes(marker)) markers.delete(marker);
  }
}
const scripts = files(dist, (name) => name.endsWith('.js'));
const found = [];
for (const file of scripts) {
  const code = readFileSync(file, 'utf8');
  for (const marker of markers) if (code.includes(marker)) found.push(`${file}: "${marker}"`);
  if (/\bfrom\s*["']node:|require\(["']node:/.test(code)) found.push(`${file}: a node: import`);
}
if (scripts.length === 0) throw new Error(`no scripts in ${dist}: build first`);
if (found.length > 0) {
  console.error(`server code in the web build:\n${found.join('\n')}`);
  process.exit(1);
}
console.log(`web build: ${scripts.length} scripts, none with any of ${markers.size} server strings`);

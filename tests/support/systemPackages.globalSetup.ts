import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * What each project needs from Debian, and the package that brings it: the browsers, and the
 * reverse proxies the `http` project's tests/host/realProxies.test.ts runs (nginx lives in
 * /usr/sbin, not on every user's PATH).
 */
const NEEDS: Record<string, readonly { file: string; pkg: string }[]> = {
  browser: [{ file: process.env.CHROMIUM_PATH ?? 'chromium', pkg: 'chromium' }],
  webkit: [
    { file: 'WebKitWebDriver', pkg: 'webkit2gtk-driver' },
    { file: 'xvfb-run', pkg: 'xvfb' },
    {
      file: process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
      pkg: 'webkit2gtk-driver',
    },
  ],
  firefox: [{ file: process.env.FIREFOX_PATH ?? 'firefox-esr', pkg: 'firefox-esr' }],
  http: [
    { file: process.env.NGINX_PATH ?? '/usr/sbin/nginx', pkg: 'nginx' },
    { file: process.env.CADDY_PATH ?? 'caddy', pkg: 'caddy' },
  ],
};

/** True when `file` (a path, or a command looked up on PATH) can be run. */
function runnable(file: string): boolean {
  const candidates = file.includes('/')
    ? [file]
    : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, file));
  return candidates.some((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Stops the run before any test when what a project drives (a browser, a reverse proxy) is not
 * installed, naming the one command that installs it, instead of every such test failing on its own.
 */
export default function setup(project: TestProject): void {
  const missing = (NEEDS[project.name] ?? []).filter((need) => !runnable(need.file));
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((need) => need.pkg))].join(' ');
  throw new Error(
    `The ${project.name} tests need ${missing.map((need) => need.file).join(', ')}, not installed. ` +
      `Run: apt-get install -y ${packages}`,
  );
}

import { type Browser, chromium } from 'playwright-core';

/**
 * Flags for Debian's Chromium here: headless as root, and no background networking, which on
 * this closed network floods it with refused connections.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/** Launches Debian's Chromium headless (never a downloaded browser). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS],
  });
}

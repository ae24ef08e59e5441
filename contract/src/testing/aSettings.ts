import type { Settings } from '../snapshot';

/**
 * Settings for a test: a host's defaults (system theme, nothing allowed without asking, no
 * commands, no system prompt), with `overrides` on top. Typed by the contract, so a new required
 * setting is added here once, not in every test.
 *
 * @example aSettings({ theme: 'dark' })
 */
export function aSettings(overrides: Partial<Settings> = {}): Settings {
  return { theme: 'system', autoApprove: [], allowCommands: false, systemPrompt: '', ...overrides };
}

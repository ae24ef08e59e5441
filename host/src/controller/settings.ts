import type { ActionOf, Settings } from '@webbridge/contract';
import type { HostStore } from '../db/HostStore';
import type { SettingsTable } from '../db/SettingsTable';

/** The settings of a fresh data directory. */
export const DEFAULT_SETTINGS: Settings = {
  theme: 'system',
  autoApprove: [],
  allowCommands: false,
  systemPrompt: '',
};

/**
 * Settings that are remembered across runs. `autoApprove` is not among them: the contract
 * defines it as "allowed without asking for the rest of this session", so a restart asks again.
 */
const PERSISTED = ['theme', 'allowCommands', 'systemPrompt'] as const;

/** Reads the persisted settings over the defaults, ignoring stored values of the wrong type. */
export function loadSettings(table: Pick<SettingsTable, 'read'>): Settings {
  const stored = table.read();
  const settings: Settings = { ...DEFAULT_SETTINGS };
  const theme = stored.get('theme');
  if (theme === 'system' || theme === 'light' || theme === 'dark') settings.theme = theme;
  const allowCommands = stored.get('allowCommands');
  if (typeof allowCommands === 'boolean') settings.allowCommands = allowCommands;
  const systemPrompt = stored.get('systemPrompt');
  if (typeof systemPrompt === 'string') settings.systemPrompt = systemPrompt;
  return settings;
}

/** Merges a partial update into the settings and persists what is persisted. */
export function mergeSettings(
  store: Pick<HostStore, 'transaction'> & { readonly settings: Pick<SettingsTable, 'set'> },
  current: Settings,
  update: ActionOf<'updateSettings'>['settings'],
): Settings {
  const next: Settings = { ...current };
  if (update.theme !== undefined) next.theme = update.theme;
  if (update.autoApprove !== undefined) next.autoApprove = [...new Set(update.autoApprove)];
  if (update.allowCommands !== undefined) next.allowCommands = update.allowCommands;
  if (update.systemPrompt !== undefined) next.systemPrompt = update.systemPrompt;
  store.transaction(() => {
    for (const key of PERSISTED) if (update[key] !== undefined) store.settings.set(key, next[key]);
  });
  return next;
}

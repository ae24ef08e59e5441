import { useEffect, useState } from 'preact/hooks';
import { useSession } from '../state/SessionContext';
import type { Settings, Snapshot } from '../state/types';

/** Props of {@link SettingsPanel}. */
export interface SettingsPanelProps {
  readonly settings: Settings;
  readonly tools: Snapshot['tools']['list'];
}

const THEMES: readonly { value: Settings['theme']; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Theme, tools allowed without asking, the command tool, and the system prompt. */
export function SettingsPanel({ settings, tools }: SettingsPanelProps) {
  const session = useSession();
  const [prompt, setPrompt] = useState(settings.systemPrompt);
  useEffect(() => setPrompt(settings.systemPrompt), [settings.systemPrompt]);
  const update = (patch: Partial<Settings>) =>
    void session.act({ action: 'updateSettings', settings: patch });
  const asking = tools.filter((tool) => tool.needsApproval);

  return (
    <details class="panel settings">
      <summary>
        <h2>Settings</h2>
      </summary>
      <label class="field">
        <span>Theme</span>
        <select
          value={settings.theme}
          onChange={(event) => update({ theme: event.currentTarget.value as Settings['theme'] })}
        >
          {THEMES.map((theme) => (
            <option key={theme.value} value={theme.value}>
              {theme.label}
            </option>
          ))}
        </select>
      </label>
      {asking.length > 0 && (
        <fieldset class="field">
          <legend>Allow without asking</legend>
          {asking.map((tool) => (
            <label key={tool.name} class="check">
              <input
                type="checkbox"
                checked={settings.autoApprove.includes(tool.name)}
                onChange={(event) =>
                  update({
                    autoApprove: event.currentTarget.checked
                      ? [...settings.autoApprove, tool.name]
                      : settings.autoApprove.filter((name) => name !== tool.name),
                  })
                }
              />
              <code>{tool.name}</code>
            </label>
          ))}
        </fieldset>
      )}
      <label class="check field">
        <input
          type="checkbox"
          checked={settings.allowCommands}
          onChange={(event) => update({ allowCommands: event.currentTarget.checked })}
        />
        Allow running commands
      </label>
      <form
        class="field"
        onSubmit={(event) => {
          event.preventDefault();
          update({ systemPrompt: prompt });
        }}
      >
        <label for="system-prompt">System prompt</label>
        <textarea
          id="system-prompt"
          rows={4}
          maxLength={20_000}
          value={prompt}
          onInput={(event) => setPrompt(event.currentTarget.value)}
        />
        <button type="submit" class="small" disabled={prompt === settings.systemPrompt}>
          Save prompt
        </button>
      </form>
    </details>
  );
}

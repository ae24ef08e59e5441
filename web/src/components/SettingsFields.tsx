import { useEffect, useState } from 'preact/hooks';
import type { MessageKey } from '../i18n/catalogue';
import { useI18n } from '../i18n/I18nContext';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '../i18n/languages';
import { useSession } from '../state/SessionContext';
import type { Settings, Snapshot } from '../state/types';
import { PushSettings } from './PushSettings';

const THEMES: readonly { value: Settings['theme']; label: MessageKey }[] = [
  { value: 'system', label: 'themeSystem' },
  { value: 'light', label: 'themeLight' },
  { value: 'dark', label: 'themeDark' },
];

/** Props of {@link SettingsFields} and of the panel around them. */
export interface SettingsPanelProps {
  readonly settings: Settings;
  readonly tools: Snapshot['tools']['list'];
}

/**
 * The settings' fields: theme, language, tools allowed without asking, the command tool, the
 * system prompt and push. In their own chunk ({@link SettingsPanel} shows them once loaded):
 * they are inside a closed panel at the first paint.
 */
export function SettingsFields({ settings, tools }: SettingsPanelProps) {
  const session = useSession();
  const { t, language, hostLanguage, chosenLanguage, chooseLanguage } = useI18n();
  const [prompt, setPrompt] = useState(settings.systemPrompt);
  useEffect(() => setPrompt(settings.systemPrompt), [settings.systemPrompt]);
  const update = (patch: Partial<Settings>) =>
    void session.act({ action: 'updateSettings', settings: patch });
  const asking = tools.filter((tool) => tool.needsApproval);

  return (
    <>
      <label class="field">
        <span>{t('theme')}</span>
        <select
          value={settings.theme}
          onChange={(event) => update({ theme: event.currentTarget.value as Settings['theme'] })}
        >
          {THEMES.map((theme) => (
            <option key={theme.value} value={theme.value}>
              {t(theme.label)}
            </option>
          ))}
        </select>
      </label>
      <label class="field">
        <span>{t('language')}</span>
        {/* The person's choice is kept in this browser, not on the host. */}
        <select
          value={chosenLanguage ?? ''}
          lang={language}
          onChange={(event) => {
            const value = event.currentTarget.value;
            chooseLanguage(isLanguage(value) ? value : null);
          }}
        >
          <option value="">{t('languageHost', { name: LANGUAGE_NAMES[hostLanguage] })}</option>
          {LANGUAGES.map((code) => (
            <option key={code} value={code} lang={code}>
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </select>
      </label>
      {asking.length > 0 && (
        <fieldset class="field">
          <legend>{t('allowWithoutAsking')}</legend>
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
        {t('allowCommands')}
      </label>
      <form
        class="field"
        onSubmit={(event) => {
          event.preventDefault();
          update({ systemPrompt: prompt });
        }}
      >
        <label for="system-prompt">{t('systemPrompt')}</label>
        <textarea
          id="system-prompt"
          rows={4}
          maxLength={20_000}
          value={prompt}
          onInput={(event) => setPrompt(event.currentTarget.value)}
        />
        <button type="submit" class="small" disabled={prompt === settings.systemPrompt}>
          {t('savePrompt')}
        </button>
      </form>
      <PushSettings />
    </>
  );
}

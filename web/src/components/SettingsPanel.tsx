import { useT } from '../i18n/I18nContext';
import { lazyComponent } from '../render/lazyComponent';
import type { SettingsPanelProps } from './SettingsFields';

/** The fields, in their own chunk: the panel is closed at the first paint. */
const SettingsFields = lazyComponent(() =>
  import('./SettingsFields').then((module) => module.SettingsFields),
);

/** Theme, tools allowed without asking, the command tool, and the system prompt. */
export function SettingsPanel(props: SettingsPanelProps) {
  const t = useT();
  return (
    <details class="panel settings">
      <summary>
        <h2>{t('settings')}</h2>
      </summary>
      <SettingsFields {...props} />
    </details>
  );
}

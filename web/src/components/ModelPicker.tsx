import { useT } from '../i18n/I18nContext';
import { useSession } from '../state/SessionContext';
import type { Snapshot } from '../state/types';

/** Props of {@link ModelPicker}. */
export interface ModelPickerProps {
  readonly models: Snapshot['models'];
}

/** Chooses the model that answers in this conversation. */
export function ModelPicker({ models }: ModelPickerProps) {
  const session = useSession();
  const t = useT();
  return (
    <section class="panel" aria-labelledby="model-heading">
      <h2 id="model-heading">{t('model')}</h2>
      <select
        aria-labelledby="model-heading"
        value={models.current}
        onChange={(event) => {
          const modelId = event.currentTarget.value;
          void session.sensitive((client) => client.model(modelId));
        }}
      >
        {models.list.map((model) => (
          <option key={model.id} value={model.id}>
            {model.name} · {model.provider}
          </option>
        ))}
      </select>
    </section>
  );
}

import { MAX_DEVICE_NAME } from '@webbridge/contract';
import { useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';

/** Props of {@link PairPage}. */
export interface PairPageProps {
  /** The name the browser suggests for itself (editable). */
  readonly defaultName: string;
  readonly pairing: boolean;
  readonly onPair: (name: string) => void;
  /** Leaves the link aside and shows the code form. */
  readonly onTypeCode: () => void;
}

/**
 * What a pairing link opens: the device's name, prefilled from the browser and editable, and
 * one button that redeems the link's one-time token. The token is already out of the address
 * bar; it waits in memory until the person pairs.
 */
export function PairPage({ defaultName, pairing, onPair, onTypeCode }: PairPageProps) {
  const t = useT();
  const [name, setName] = useState(defaultName);
  return (
    <main class="connect">
      <form
        class="connect-card"
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = name.trim();
          if (trimmed !== '' && !pairing) onPair(trimmed);
        }}
      >
        <h1>{t('pairTitle')}</h1>
        <p>{t('pairPrompt')}</p>
        <label for="device-name">{t('deviceNameLabel')}</label>
        <input
          id="device-name"
          name="device-name"
          value={name}
          maxLength={MAX_DEVICE_NAME}
          onInput={(event) => setName(event.currentTarget.value)}
          autocomplete="off"
          dir="auto"
          required
        />
        <button type="submit" class="primary" disabled={pairing}>
          {t(pairing ? 'pairing' : 'pairButton')}
        </button>
        <button type="button" class="link-button" onClick={onTypeCode}>
          {t('typeCodeInstead')}
        </button>
      </form>
    </main>
  );
}

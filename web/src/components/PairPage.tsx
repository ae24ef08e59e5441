import { type AccessLevel, MAX_DEVICE_NAME } from '@webbridge/contract';
import { useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import { type ConnectProblem, problemText } from './ConnectPage';

/**
 * A link opened in a browser that is paired already: the role it has, and the role the link
 * would give it (null for a pairing link, whose role the host tells only when it is spent).
 */
export interface Replacing {
  readonly current: AccessLevel;
  readonly next: AccessLevel | null;
}

/** Props of {@link PairPage}. */
export interface PairPageProps {
  /** The name the browser suggests for itself (editable). */
  readonly defaultName: string;
  readonly pairing: boolean;
  /** Why the last try did not pair (a name the host refused), if it did not. */
  readonly problem?: ConnectProblem | null;
  /** Set when this browser is paired already: the page says what pairing again would change. */
  readonly replacing?: Replacing | null;
  /** Keeps the current pairing and opens it (offered with `replacing`). */
  readonly onKeep?: () => void;
  readonly onPair: (name: string) => void;
  /** Leaves the link aside and shows the code form. */
  readonly onTypeCode: () => void;
}

/**
 * What a pairing link opens: the device's name, prefilled from the browser and editable, and
 * one button that redeems the link's one-time token. The token is already out of the address
 * bar; it waits in memory until the person pairs. In a browser that is paired already it first
 * says what it is paired as and what pairing again would make it, and offers to keep it.
 */
export function PairPage({
  defaultName,
  pairing,
  problem = null,
  replacing = null,
  onKeep,
  onPair,
  onTypeCode,
}: PairPageProps) {
  const t = useT();
  const [name, setName] = useState(defaultName);
  const message = problemText(problem, t, 0);
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
        <h1>{t(replacing ? 'alreadyPairedTitle' : 'pairTitle')}</h1>
        {replacing ? (
          <div class="replacing" data-current={replacing.current} data-next={replacing.next ?? 'unknown'}>
            <p>{t(replacing.current === 'control' ? 'pairedToControl' : 'pairedToWatch')}</p>
            <p class="connect-problem">
              {t(
                replacing.next === null
                  ? 'repairByLink'
                  : replacing.next === 'view'
                    ? 'repairToWatch'
                    : 'repairToControl',
              )}
            </p>
            <button type="button" class="primary" onClick={onKeep} disabled={pairing}>
              {t('keepPairing')}
            </button>
          </div>
        ) : (
          <p>{t('pairPrompt')}</p>
        )}
        <label for="device-name">{t('deviceNameLabel')}</label>
        <input
          id="device-name"
          name="device-name"
          value={name}
          maxLength={MAX_DEVICE_NAME}
          onInput={(event) => setName(event.currentTarget.value)}
          autocomplete="off"
          dir="auto"
          aria-invalid={problem?.kind === 'name_taken'}
          aria-describedby={message ? 'pair-problem' : undefined}
          required
        />
        {message && (
          <p id="pair-problem" class="connect-problem" role="alert">
            {message}
          </p>
        )}
        <button type="submit" class={replacing ? undefined : 'primary'} disabled={pairing}>
          {t(pairing ? 'pairing' : replacing ? 'pairAgain' : 'pairButton')}
        </button>
        {/* Paired already, "Keep the current pairing" is the way out of the link. */}
        {!replacing && (
          <button type="button" class="link-button" onClick={onTypeCode}>
            {t('typeCodeInstead')}
          </button>
        )}
      </form>
    </main>
  );
}

import { MAX_DEVICE_NAME } from '@webbridge/contract';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import type { Translate } from '../i18n/translate';
import type { ProbeFailure } from '../state/probeAccessCode';

/**
 * What the connection page explains: a failed check, a code the host no longer accepts, a
 * pairing link that cannot be used (the page then offers the code), or a paired device the host
 * forgot.
 */
export type ConnectProblem =
  | ProbeFailure
  | { readonly kind: 'rotated' }
  | { readonly kind: 'link_spent' }
  | { readonly kind: 'link_expired' }
  | { readonly kind: 'link_invalid' }
  | { readonly kind: 'forgotten' }
  /** The host refused the device's name: another device has it, or it names the host. */
  | { readonly kind: 'name_taken' }
  /** The host keeps as many devices as it will (MAX_DEVICES). */
  | { readonly kind: 'too_many_devices' };

/** Props of {@link ConnectPage}. */
export interface ConnectPageProps {
  readonly checking: boolean;
  readonly problem: ConnectProblem | null;
  /** The name the browser suggests for itself when it pairs (editable). */
  readonly defaultName: string;
  /** Connects with the typed code; `remember` pairs this browser under `name` first. */
  readonly onConnect: (code: string, remember: boolean, name: string) => void;
  /** Tries the kept device credential again (the host did not answer); absent when none is kept. */
  readonly onRetry?: (() => void) | undefined;
}

/**
 * The connection page: the access code field, "remember this device" (on by default: the
 * browser pairs and reconnects by itself from then on) with the device's name, and a clear word
 * when it did not work. The field starts empty every time the page is shown.
 */
export function ConnectPage({ checking, problem, defaultName, onConnect, onRetry }: ConnectPageProps) {
  const t = useT();
  const [code, setCode] = useState('');
  const [remember, setRemember] = useState(true);
  const [name, setName] = useState(defaultName);
  const [waitUntil, setWaitUntil] = useState(0);
  const [now, setNow] = useState(Date.now());
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (problem?.kind === 'rate_limited') setWaitUntil(Date.now() + (problem.retryAfterSeconds ?? 5) * 1000);
    if (problem?.kind === 'wrong_code') input.current?.select();
  }, [problem]);
  useEffect(() => {
    if (waitUntil <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [waitUntil]);

  const secondsLeft = Math.max(0, Math.ceil((waitUntil - now) / 1000));
  const blocked = secondsLeft > 0;
  const message = problemText(problem, t, secondsLeft);

  return (
    <main class="connect">
      <form
        class="connect-card"
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = code.trim();
          if (trimmed !== '' && !checking && !blocked)
            onConnect(trimmed, remember, name.trim() || defaultName);
        }}
      >
        <h1>{t('title')}</h1>
        <p>{t('prompt')}</p>
        <label for="access-code">{t('codeLabel')}</label>
        <input
          id="access-code"
          ref={input}
          name="code"
          value={code}
          onInput={(event) => setCode(event.currentTarget.value)}
          autocomplete="off"
          dir="auto"
          autocapitalize="off"
          spellcheck={false}
          autofocus
          aria-invalid={problem?.kind === 'wrong_code'}
          aria-describedby={message ? 'connect-problem' : undefined}
          required
        />
        <label class="check remember">
          <input
            type="checkbox"
            name="remember"
            checked={remember}
            onChange={(event) => setRemember(event.currentTarget.checked)}
          />
          {t('rememberDevice')}
        </label>
        {remember && (
          <>
            <label for="device-name">{t('deviceNameLabel')}</label>
            <input
              id="device-name"
              name="device-name"
              value={name}
              maxLength={MAX_DEVICE_NAME}
              onInput={(event) => setName(event.currentTarget.value)}
              autocomplete="off"
              dir="auto"
            />
          </>
        )}
        {message && (
          <p id="connect-problem" class="connect-problem" role="alert">
            {message}
          </p>
        )}
        <button type="submit" class="primary" disabled={checking || blocked}>
          {t(checking ? 'connecting' : 'connect')}
        </button>
        {onRetry && problem?.kind === 'unreachable' && (
          <button type="button" class="link-button" onClick={onRetry} disabled={checking}>
            {t('retry')}
          </button>
        )}
      </form>
    </main>
  );
}

/** What the page says about `problem` (null: nothing to say). */
export function problemText(
  problem: ConnectProblem | null,
  t: Translate,
  secondsLeft: number,
): string | null {
  if (problem === null) return null;
  switch (problem.kind) {
    case 'wrong_code':
      return t('wrongCode');
    case 'rate_limited':
      return secondsLeft > 0
        ? t('rateLimitedWait', { message: t('rateLimited'), seconds: secondsLeft })
        : t('rateLimited');
    case 'unreachable':
      return t('hostUnreachable', { detail: problem.detail });
    case 'rotated':
      return t('codeRotated');
    case 'link_spent':
      return t('linkSpent');
    case 'link_expired':
      return t('linkExpired');
    case 'link_invalid':
      return t('linkInvalid');
    case 'forgotten':
      return t('deviceForgotten');
    case 'name_taken':
      return t('deviceNameTaken');
    case 'too_many_devices':
      return t('tooManyDevices');
    default: {
      const never: never = problem;
      return never;
    }
  }
}

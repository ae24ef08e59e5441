import { useEffect, useRef, useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import type { Translate } from '../i18n/translate';
import type { ProbeFailure } from '../state/probeAccessCode';

/** What the connection page explains: a failed check, or a code the host no longer accepts. */
export type ConnectProblem = ProbeFailure | { readonly kind: 'rotated' };

/** Props of {@link ConnectPage}. */
export interface ConnectPageProps {
  readonly checking: boolean;
  readonly problem: ConnectProblem | null;
  readonly initialCode: string;
  readonly onConnect: (code: string) => void;
}

/** The connection page: the access code field and a clear word when it did not work. */
export function ConnectPage({ checking, problem, initialCode, onConnect }: ConnectPageProps) {
  const t = useT();
  const [code, setCode] = useState(initialCode);
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
          if (trimmed !== '' && !checking && !blocked) onConnect(trimmed);
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
        {message && (
          <p id="connect-problem" class="connect-problem" role="alert">
            {message}
          </p>
        )}
        <button type="submit" class="primary" disabled={checking || blocked}>
          {t(checking ? 'connecting' : 'connect')}
        </button>
      </form>
    </main>
  );
}

function problemText(problem: ConnectProblem | null, t: Translate, secondsLeft: number): string | null {
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
    default: {
      const never: never = problem;
      return never;
    }
  }
}

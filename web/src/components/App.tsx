import { BridgeClientError, createDeviceClient, type DeviceClient } from '@webbridge/client-sdk';
import { type AccessLevel, MAX_DEVICE_NAME, type PairRequest, type PairResponse } from '@webbridge/contract';
import type { JSX } from 'preact';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { I18nContext } from '../i18n/I18nContext';
import { useI18nState } from '../i18n/useI18nState';
import { lazyComponent } from '../render/lazyComponent';
import { createSession, type Session } from '../state/createSession';
import { type DevicesAccess, DevicesContext } from '../state/DevicesContext';
import {
  forgetSecrets,
  type KeptDevice,
  keepDevice,
  keptDevice,
  type LinkSecret,
  takeLinkSecret,
} from '../state/deviceCredential';
import { defaultDeviceName } from '../state/deviceName';
import { probeAccessCode } from '../state/probeAccessCode';
import { SessionContext } from '../state/SessionContext';
import { useStoreSelector } from '../state/useStoreSelector';
import { WatchingContext } from '../state/WatchingContext';
import { ChatScreen } from './ChatScreen';
import { ConnectPage, type ConnectProblem } from './ConnectPage';
import type { Replacing } from './PairPage';

/** The pairing link's page, in its own chunk: a paired browser reopening never shows it. */
const PairPage = lazyComponent(() => import('./PairPage').then((module) => module.PairPage));

/** How many names the page tries for its own suggestion ("Chrome on Android (2)", …). */
const SUGGESTED_NAME_TRIES = 10;

/** Props of {@link App}. */
export interface AppProps {
  /** Origin (and base path) of the bridge. @default where this page is: origin and folder */
  readonly baseUrl?: string;
}

/**
 * The page: a pairing link's page, the connection page, then the chat. A paired browser
 * reconnects with its kept device credential and asks for nothing; it goes back to the
 * connection page when the host stops accepting what it presents (a rotated code, a forgotten
 * device). Disconnect forgets every secret the page kept.
 */
export function App({ baseUrl = pageBase() }: AppProps) {
  const i18n = useI18nState(baseUrl);
  const devices = useMemo(() => createDeviceClient({ baseUrl }), [baseUrl]);
  const defaultName = useMemo(() => defaultDeviceName(navigator.userAgent), []);
  const [session, setSession] = useState<Session | null>(null);
  /** What the session presents: a device credential, or a code the person chose not to keep. */
  const [presented, setPresented] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [problem, setProblem] = useState<ConnectProblem | null>(null);
  /** A pairing link's token, in memory only, until the person pairs or types the code. */
  const [pairToken, setPairToken] = useState<string | null>(null);
  const [kept, setKept] = useState<KeptDevice | null>(null);
  /**
   * A link opened in a browser that is paired already: what it would replace, shown until the
   * person keeps the pairing or pairs again (a code link's code waits here, in memory only).
   */
  const [replacing, setReplacing] = useState<(Replacing & { readonly code?: string }) | null>(null);

  /** Opens a session with a code or credential; the failure when the host refused it. */
  const open = useCallback(
    async (secret: string): Promise<ConnectProblem | null> => {
      // The session's own client checks the secret; its store then already shows the state.
      const next = createSession({ baseUrl, accessCode: secret });
      const result = await probeAccessCode(next.client);
      if (!result.ok) return result.failure;
      next.start();
      setPresented(secret);
      setSession(next);
      return null;
    },
    [baseUrl],
  );

  const run = useCallback(async (work: () => Promise<ConnectProblem | null>) => {
    setChecking(true);
    setProblem(null);
    const outcome = await work().catch(
      (error: unknown): ConnectProblem => ({ kind: 'unreachable', detail: String(error) }),
    );
    setChecking(false);
    setProblem(outcome);
    return outcome;
  }, []);

  /**
   * Pairs under the request's name. The host refuses a name another device has; when it is the
   * page's own suggestion (the person did not choose it) the page tries "… (2)", "… (3)".
   */
  const pairNamed = useCallback(
    async (request: PairRequest): Promise<PairResponse> => {
      const suggested = request.name === defaultName;
      for (let n = 1; ; n++) {
        const suffix = n === 1 ? '' : ` (${n})`;
        const name = `${request.name.slice(0, MAX_DEVICE_NAME - suffix.length)}${suffix}`;
        try {
          return await devices.pair({ ...request, name });
        } catch (error) {
          const taken = error instanceof BridgeClientError && error.code === 'device_name_taken';
          if (!taken || !suggested || n >= SUGGESTED_NAME_TRIES) throw error;
        }
      }
    },
    [devices, defaultName],
  );

  const pairAndOpen = useCallback(
    (request: PairRequest) =>
      run(async () => {
        const previous = keptDevice(window);
        const paired = await pairNamed(request).catch((error: unknown) => pairFailure(error, request));
        if ('kind' in paired) return paired;
        const device = { credential: paired.credential, deviceId: paired.device.id };
        keepDevice(window, device);
        setKept(device);
        // Paired anew: the credential this browser held before is of no more use to anyone.
        if (previous) void devices.forget(previous.credential, previous.deviceId).catch(() => {});
        setReplacing(null);
        return open(paired.credential);
      }),
    [devices, open, run, pairNamed],
  );

  const openKept = useCallback(
    (device: KeptDevice) =>
      run(async () => {
        const failure = await open(device.credential);
        if (failure?.kind !== 'wrong_code') return failure;
        forgetSecrets(window);
        setKept(null);
        return { kind: 'forgotten' };
      }),
    [open, run],
  );

  const connectWithCode = useCallback(
    (code: string, remember: boolean, name: string) =>
      void (remember ? pairAndOpen({ code, name }) : run(() => open(code))),
    [pairAndOpen, run, open],
  );

  /** What a secret lets do ('control' or 'view'), or why the host did not take it. */
  const accessOf = useCallback(
    async (secret: string): Promise<AccessLevel | ConnectProblem> => {
      const probe = createSession({ baseUrl, accessCode: secret });
      const result = await probeAccessCode(probe.client);
      probe.close();
      if (!result.ok) return result.failure;
      return probe.client.access ?? 'control';
    },
    [baseUrl],
  );

  /**
   * A link opened in a browser paired already never changes its pairing by itself: a code
   * link for the role it has changes nothing (the kept pairing opens); one for another role,
   * and any pairing link (whose role the host knows only when it is spent), first say what
   * they would do and wait for a tap.
   */
  const linkWhilePaired = useCallback(
    async (link: LinkSecret, device: KeptDevice) => {
      setChecking(true);
      const unreachable = (error: unknown): ConnectProblem => ({
        kind: 'unreachable',
        detail: String(error),
      });
      const current = await accessOf(device.credential).catch(unreachable);
      const next =
        link.kind === 'code' && typeof current === 'string'
          ? await accessOf(link.code).catch(unreachable)
          : null;
      setChecking(false);
      if (typeof current !== 'string') {
        if (current.kind !== 'wrong_code') {
          setProblem(current);
          return;
        }
        // The host forgot this browser: nothing is kept to protect, the link is used as usual.
        forgetSecrets(window);
        setKept(null);
        if (link.kind === 'pair') setPairToken(link.token);
        else void pairAndOpen({ code: link.code, name: defaultName });
      } else if (link.kind === 'pair') {
        setPairToken(link.token);
        setReplacing({ current, next: null });
      } else if (next === current || typeof next !== 'string') {
        // The role it has already, or a code the host does not take: the kept pairing opens.
        void openKept(device);
      } else {
        setReplacing({ current, next, code: link.code });
      }
    },
    [accessOf, openKept, pairAndOpen, defaultName],
  );

  // Once, on load: a link's secret first (a new pairing wins over an old one, after a tap when
  // this browser is paired already), else the kept device.
  useEffect(() => {
    const link = takeLinkSecret(window);
    const device = keptDevice(window);
    if (device) setKept(device);
    if (link && device) void linkWhilePaired(link, device);
    else if (link?.kind === 'pair') setPairToken(link.token);
    else if (link?.kind === 'code') void pairAndOpen({ code: link.code, name: defaultName });
    else if (device) void openKept(device);
  }, []);

  const keepPairing = useCallback(() => {
    setReplacing(null);
    setPairToken(null);
    if (kept) void openKept(kept);
  }, [kept, openKept]);

  const disconnect = useCallback(
    (reason: ConnectProblem | null) => {
      session?.close();
      const device = keptDevice(window);
      // Disconnect forgets this device on the host too (best effort: it may be gone already).
      if (reason === null && device) void devices.forget(device.credential, device.deviceId).catch(() => {});
      forgetSecrets(window);
      setKept(null);
      setPresented(null);
      setSession(null);
      setProblem(reason?.kind === 'rotated' && device ? { kind: 'forgotten' } : reason);
    },
    [session, devices],
  );

  const deviceAccess = useMemo(
    (): DevicesAccess | null => (presented === null ? null : boundDevices(devices, presented)),
    [devices, presented],
  );

  let page: JSX.Element;
  if (session !== null) {
    page = (
      <SessionContext.Provider value={session}>
        {/* The probe's answer said what the code allows; a view code only watches. */}
        <WatchingContext.Provider value={session.client.access === 'view'}>
          <DevicesContext.Provider value={deviceAccess}>
            <Connected session={session} onDisconnect={disconnect} />
          </DevicesContext.Provider>
        </WatchingContext.Provider>
      </SessionContext.Provider>
    );
  } else if (pairToken !== null || replacing?.code !== undefined) {
    const token = pairToken;
    const code = replacing?.code;
    page = (
      <PairPage
        defaultName={defaultName}
        pairing={checking}
        problem={problem}
        replacing={replacing}
        onKeep={keepPairing}
        onPair={(name) =>
          void pairAndOpen(token !== null ? { token, name } : { code: code ?? '', name }).then((outcome) => {
            // A name the host refused: the person chooses another here, the link still good.
            if (outcome?.kind !== 'name_taken') {
              setPairToken(null);
              setReplacing(null);
            }
          })
        }
        onTypeCode={() => {
          setPairToken(null);
          setReplacing(null);
        }}
      />
    );
  } else {
    page = (
      <ConnectPage
        checking={checking}
        problem={problem}
        defaultName={defaultName}
        onConnect={connectWithCode}
        onRetry={kept ? () => void openKept(kept) : undefined}
      />
    );
  }
  return <I18nContext.Provider value={i18n}>{page}</I18nContext.Provider>;
}

/** What the connection page says about a pairing the host refused. */
function pairFailure(error: unknown, request: PairRequest): ConnectProblem {
  if (!(error instanceof BridgeClientError)) throw error;
  switch (error.code) {
    case 'pairing_token_spent':
      return { kind: 'link_spent' };
    case 'pairing_token_expired':
      return { kind: 'link_expired' };
    case 'unauthorized':
      return 'token' in request ? { kind: 'link_invalid' } : { kind: 'wrong_code' };
    case 'rate_limited':
      return { kind: 'rate_limited', retryAfterSeconds: error.retryAfterSeconds };
    case 'device_name_taken':
      return { kind: 'name_taken' };
    case 'too_many_devices':
      return { kind: 'too_many_devices' };
    default:
      return { kind: 'unreachable', detail: error.detail };
  }
}

/** The device routes with what this page presents. */
function boundDevices(devices: DeviceClient, secret: string): DevicesAccess {
  return {
    list: () => devices.list(secret),
    forget: (deviceId) => devices.forget(secret, deviceId),
  };
}

function Connected({
  session,
  onDisconnect,
}: {
  session: Session;
  onDisconnect: (reason: ConnectProblem | null) => void;
}) {
  const status = useStoreSelector(session.store, (state) => state.status);
  useEffect(() => {
    if (status === 'unauthorized') onDisconnect({ kind: 'rotated' });
  }, [status, onDisconnect]);
  useEffect(() => () => session.close(), [session]);
  return <ChatScreen onDisconnect={() => onDisconnect(null)} />;
}

/**
 * The bridge's URL as this page sees it: its origin, plus the folder the page was served from
 * when a proxy mounts the app under a base path (`https://name/webbridge/` → `…/webbridge`).
 */
function pageBase(): string {
  return location.origin + location.pathname.replace(/\/[^/]*$/, '');
}

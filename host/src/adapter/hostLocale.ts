import { type Locale, PROTOCOL_VERSION } from '@webbridge/contract';

/** The connection page's strings, in English. Nothing here may describe the controller's state. */
const STRINGS: Readonly<Record<string, string>> = {
  title: 'webbridge',
  prompt: 'Enter the access code shown by the host.',
  codeLabel: 'Access code',
  connect: 'Connect',
  connecting: 'Connecting…',
  wrongCode: 'That code is not right. Check it on the host and try again.',
  rateLimited: 'Too many attempts. Wait a moment and try again.',
  disconnected: 'Connection lost. Reconnecting…',
  protocolMismatch: 'The host was updated. Reload the page.',
  reload: 'Reload',
};

/** The public locale document of the reference host. */
export function hostLocale(): Locale {
  return { language: 'en', strings: { ...STRINGS }, protocol: PROTOCOL_VERSION };
}

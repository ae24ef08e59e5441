import type { ConnectionStringKey } from '../locale';

/** The connection page's strings in German (the host serves them; the web page's catalogue spreads them). */
export const CONNECTION_STRINGS_DE: { readonly [K in ConnectionStringKey]: string } = {
  title: 'webbridge',
  prompt: 'Gib den Zugangscode ein, den der Host anzeigt.',
  codeLabel: 'Zugangscode',
  connect: 'Verbinden',
  connecting: 'Verbinde …',
  wrongCode: 'Dieser Code stimmt nicht. Prüfe ihn am Host und versuche es erneut.',
  rateLimited: 'Zu viele Versuche. Warte einen Moment und versuche es erneut.',
  disconnected: 'Verbindung verloren. Verbinde neu …',
  protocolMismatch: 'Der Host wurde aktualisiert. Lade die Seite neu.',
  reload: 'Neu laden',
};

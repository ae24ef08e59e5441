import type { Catalogue } from '../catalogue';

/** The page's strings in German. */
export const de: Catalogue = {
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
  hostUnreachable: 'Der Host hat nicht geantwortet ({detail}). Läuft er?',
  codeRotated: 'Der Host hat seinen Zugangscode geändert. Gib den neuen ein.',
  rateLimitedWait: '{message} ({seconds} s)',
};

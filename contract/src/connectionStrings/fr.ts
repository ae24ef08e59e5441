import type { ConnectionStringKey } from '../locale';

/** The connection page's strings in French (the host serves them; the web page's catalogue spreads them). */
export const CONNECTION_STRINGS_FR: { readonly [K in ConnectionStringKey]: string } = {
  title: 'webbridge',
  prompt: 'Saisissez le code d’accès affiché par l’hôte.',
  codeLabel: 'Code d’accès',
  connect: 'Se connecter',
  connecting: 'Connexion…',
  wrongCode: 'Ce code n’est pas le bon. Vérifiez-le sur l’hôte et réessayez.',
  rateLimited: 'Trop de tentatives. Patientez un instant et réessayez.',
  disconnected: 'Connexion perdue. Reconnexion…',
  protocolMismatch: 'L’hôte a été mis à jour. Rechargez la page.',
  reload: 'Recharger',
};

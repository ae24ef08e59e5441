import type { Catalogue } from '../catalogue';

/** The page's strings in French. */
export const fr: Catalogue = {
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
  hostUnreachable: 'L’hôte n’a pas répondu ({detail}). Est-il lancé ?',
  codeRotated: 'L’hôte a changé son code d’accès. Saisissez le nouveau.',
  rateLimitedWait: '{message} ({seconds} s)',
};

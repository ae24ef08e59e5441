import type { Catalogue } from '../catalogue';

/** The page's strings in Spanish. */
export const es: Catalogue = {
  title: 'webbridge',
  prompt: 'Introduce el código de acceso que muestra el host.',
  codeLabel: 'Código de acceso',
  connect: 'Conectar',
  connecting: 'Conectando…',
  wrongCode: 'Ese código no es correcto. Compruébalo en el host y vuelve a intentarlo.',
  rateLimited: 'Demasiados intentos. Espera un momento y vuelve a intentarlo.',
  disconnected: 'Se perdió la conexión. Reconectando…',
  protocolMismatch: 'El host se ha actualizado. Recarga la página.',
  reload: 'Recargar',
  hostUnreachable: 'El host no respondió ({detail}). ¿Está en marcha?',
  codeRotated: 'El host cambió su código de acceso. Introduce el nuevo.',
  rateLimitedWait: '{message} ({seconds} s)',
};

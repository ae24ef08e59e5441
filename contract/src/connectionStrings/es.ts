import type { ConnectionStringKey } from '../locale';

/** The connection page's strings in Spanish (the host serves them; the web page's catalogue spreads them). */
export const CONNECTION_STRINGS_ES: { readonly [K in ConnectionStringKey]: string } = {
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
};

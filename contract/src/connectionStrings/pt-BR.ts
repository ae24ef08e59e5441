import type { ConnectionStringKey } from '../locale';

/** The connection page's strings in Brazilian Portuguese (the host serves them; the web page's catalogue spreads them). */
export const CONNECTION_STRINGS_PT_BR: { readonly [K in ConnectionStringKey]: string } = {
  title: 'webbridge',
  prompt: 'Digite o código de acesso exibido pelo host.',
  codeLabel: 'Código de acesso',
  connect: 'Conectar',
  connecting: 'Conectando…',
  wrongCode: 'Esse código não está certo. Confira no host e tente de novo.',
  rateLimited: 'Tentativas demais. Aguarde um momento e tente de novo.',
  disconnected: 'Conexão perdida. Reconectando…',
  protocolMismatch: 'O host foi atualizado. Recarregue a página.',
  reload: 'Recarregar',
};

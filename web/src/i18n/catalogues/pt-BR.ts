import type { Catalogue } from '../catalogue';

/** The page's strings in Brazilian Portuguese. */
export const ptBR: Catalogue = {
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
  hostUnreachable: 'O host não respondeu ({detail}). Ele está rodando?',
  codeRotated: 'O host mudou o código de acesso. Digite o novo.',
  rateLimitedWait: '{message} ({seconds} s)',
};

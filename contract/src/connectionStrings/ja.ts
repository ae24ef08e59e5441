import type { ConnectionStringKey } from '../locale';

/** The connection page's strings in Japanese (the host serves them; the web page's catalogue spreads them). */
export const CONNECTION_STRINGS_JA: { readonly [K in ConnectionStringKey]: string } = {
  title: 'webbridge',
  prompt: 'ホストに表示されているアクセスコードを入力してください。',
  codeLabel: 'アクセスコード',
  connect: '接続',
  connecting: '接続中…',
  wrongCode: 'コードが正しくありません。ホストで確認して、もう一度お試しください。',
  rateLimited: '試行回数が多すぎます。しばらく待ってから、もう一度お試しください。',
  disconnected: '接続が切れました。再接続しています…',
  protocolMismatch: 'ホストが更新されました。ページを再読み込みしてください。',
  reload: '再読み込み',
};

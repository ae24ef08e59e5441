import type { Catalogue } from '../catalogue';

/** The page's strings in Japanese. */
export const ja: Catalogue = {
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
  hostUnreachable: 'ホストが応答しませんでした（{detail}）。起動していますか？',
  codeRotated: 'ホストのアクセスコードが変更されました。新しいコードを入力してください。',
  rateLimitedWait: '{message}（{seconds} 秒）',
};

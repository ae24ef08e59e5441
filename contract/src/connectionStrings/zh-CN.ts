import type { ConnectionStringKey } from '../locale';

/** The connection page's strings in Simplified Chinese (the host serves them; the web page's catalogue spreads them). */
export const CONNECTION_STRINGS_ZH_CN: { readonly [K in ConnectionStringKey]: string } = {
  title: 'webbridge',
  prompt: '请输入主机上显示的访问码。',
  codeLabel: '访问码',
  connect: '连接',
  connecting: '正在连接…',
  wrongCode: '访问码不正确。请在主机上核对后重试。',
  rateLimited: '尝试次数过多。请稍候再试。',
  disconnected: '连接已断开，正在重新连接…',
  protocolMismatch: '主机已更新，请重新加载页面。',
  reload: '重新加载',
};

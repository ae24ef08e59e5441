import type { Catalogue } from '../catalogue';

/** The page's strings in Simplified Chinese. */
export const zhCN: Catalogue = {
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
  hostUnreachable: '主机没有响应（{detail}）。它在运行吗？',
  codeRotated: '主机已更换访问码，请输入新的访问码。',
  rateLimitedWait: '{message}（{seconds} 秒）',
};

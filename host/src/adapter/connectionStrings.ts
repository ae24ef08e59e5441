import { CONNECTION_STRINGS, type ConnectionStringKey } from '@webbridge/contract';

/** The languages the reference host translates the connection page into. */
export const HOST_LANGUAGES = ['en', 'de', 'fr', 'es', 'pt-BR', 'zh-CN', 'ja', 'ar'] as const;

/** A language the reference host speaks. */
export type HostLanguage = (typeof HOST_LANGUAGES)[number];

type ConnectionStrings = { readonly [K in ConnectionStringKey]: string };

/**
 * The connection page's strings in each host language. English is the contract's own list; a
 * translation missing a key is a type error. The web page carries the same sentences in its
 * catalogues (the page cannot import the host), so a person's language override works too.
 */
export const CONNECTION_TRANSLATIONS: { readonly [L in HostLanguage]: ConnectionStrings } = {
  en: CONNECTION_STRINGS,
  de: {
    title: 'webbridge',
    prompt: 'Gib den Zugangscode ein, den der Host anzeigt.',
    codeLabel: 'Zugangscode',
    connect: 'Verbinden',
    connecting: 'Verbinde …',
    wrongCode: 'Dieser Code stimmt nicht. Prüfe ihn am Host und versuche es erneut.',
    rateLimited: 'Zu viele Versuche. Warte einen Moment und versuche es erneut.',
    disconnected: 'Verbindung verloren. Verbinde neu …',
    protocolMismatch: 'Der Host wurde aktualisiert. Lade die Seite neu.',
    reload: 'Neu laden',
  },
  fr: {
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
  },
  es: {
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
  },
  'pt-BR': {
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
  },
  'zh-CN': {
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
  },
  ja: {
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
  },
  ar: {
    title: 'webbridge',
    prompt: 'أدخل رمز الوصول الظاهر على المضيف.',
    codeLabel: 'رمز الوصول',
    connect: 'اتصال',
    connecting: 'جارٍ الاتصال…',
    wrongCode: 'هذا الرمز غير صحيح. تحقّق منه على المضيف وحاول مرة أخرى.',
    rateLimited: 'محاولات كثيرة جدًا. انتظر قليلًا ثم حاول مرة أخرى.',
    disconnected: 'انقطع الاتصال. جارٍ إعادة الاتصال…',
    protocolMismatch: 'تم تحديث المضيف. أعد تحميل الصفحة.',
    reload: 'إعادة التحميل',
  },
};

/**
 * The host language closest to a BCP 47 or POSIX tag: an exact match (case-insensitive,
 * `_` read as `-`), else the same primary language (`de-AT` → `de`, `pt-PT` → `pt-BR`), else
 * English.
 *
 * @example matchHostLanguage('zh_CN') // 'zh-CN'
 */
export function matchHostLanguage(tag: string): HostLanguage {
  const wanted = tag.trim().replace(/_/g, '-').toLowerCase();
  const exact = HOST_LANGUAGES.find((language) => language.toLowerCase() === wanted);
  if (exact) return exact;
  const primary = wanted.split('-')[0];
  return HOST_LANGUAGES.find((language) => language.toLowerCase().split('-')[0] === primary) ?? 'en';
}

import type { ConnectionStringKey } from '../locale';

/** The connection page's strings in Arabic (the host serves them; the web page's catalogue spreads them). */
export const CONNECTION_STRINGS_AR: { readonly [K in ConnectionStringKey]: string } = {
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
};

import type { Catalogue } from '../catalogue';

/** The page's strings in Arabic. */
export const ar: Catalogue = {
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
  hostUnreachable: 'لم يستجب المضيف ({detail}). هل هو قيد التشغيل؟',
  codeRotated: 'غيّر المضيف رمز الوصول. أدخل الرمز الجديد.',
  rateLimitedWait: '{message} ({seconds} ث)',
};

// The offline page's retry: asks the host for the page every few seconds (longer each time, at
// most 30 s, at once when the network comes back or on the button) and reloads when it answers.
// It speaks the language chosen in the app (kept in this browser), else the browser's.
(() => {
  const STRINGS = {
    en: {
      title: 'The host is unreachable',
      body: 'This page cannot reach the computer that runs webbridge. It may be asleep, off this network, or stopped.',
      wait: 'Trying again in {s} s…',
      trying: 'Trying again…',
      back: 'The host answers again. Loading…',
      retry: 'Try again now',
    },
    de: {
      title: 'Der Host ist nicht erreichbar',
      body: 'Diese Seite erreicht den Computer nicht, auf dem webbridge läuft. Er schläft vielleicht, ist nicht in diesem Netz oder wurde beendet.',
      wait: 'Neuer Versuch in {s} s …',
      trying: 'Neuer Versuch …',
      back: 'Der Host antwortet wieder. Wird geladen …',
      retry: 'Jetzt erneut versuchen',
    },
    fr: {
      title: 'L’hôte est injoignable',
      body: 'Cette page ne joint pas l’ordinateur qui exécute webbridge. Il est peut-être en veille, hors de ce réseau ou arrêté.',
      wait: 'Nouvel essai dans {s} s…',
      trying: 'Nouvel essai…',
      back: 'L’hôte répond de nouveau. Chargement…',
      retry: 'Réessayer maintenant',
    },
    es: {
      title: 'No se puede contactar con el host',
      body: 'Esta página no llega al ordenador que ejecuta webbridge. Puede que esté en reposo, fuera de esta red o detenido.',
      wait: 'Nuevo intento en {s} s…',
      trying: 'Reintentando…',
      back: 'El host responde de nuevo. Cargando…',
      retry: 'Reintentar ahora',
    },
    'pt-BR': {
      title: 'O host está inacessível',
      body: 'Esta página não consegue alcançar o computador que executa o webbridge. Ele pode estar em repouso, fora desta rede ou parado.',
      wait: 'Nova tentativa em {s} s…',
      trying: 'Tentando novamente…',
      back: 'O host respondeu de novo. Carregando…',
      retry: 'Tentar agora',
    },
    'zh-CN': {
      title: '无法连接到主机',
      body: '此页面无法连接到运行 webbridge 的计算机。它可能处于睡眠状态、不在此网络中或已停止。',
      wait: '{s} 秒后重试…',
      trying: '正在重试…',
      back: '主机已恢复响应。正在加载…',
      retry: '立即重试',
    },
    ja: {
      title: 'ホストに接続できません',
      body: 'このページは webbridge を実行しているコンピューターに接続できません。スリープ中、このネットワーク外、または停止している可能性があります。',
      wait: '{s} 秒後に再試行します…',
      trying: '再試行しています…',
      back: 'ホストが再び応答しました。読み込み中…',
      retry: '今すぐ再試行',
    },
    ar: {
      title: 'تعذّر الوصول إلى المضيف',
      body: 'لا تستطيع هذه الصفحة الوصول إلى الحاسوب الذي يشغّل webbridge. ربما يكون في وضع السكون أو خارج هذه الشبكة أو متوقفًا.',
      wait: 'إعادة المحاولة بعد {s} ث…',
      trying: 'جارٍ إعادة المحاولة…',
      back: 'المضيف يستجيب مجددًا. جارٍ التحميل…',
      retry: 'أعد المحاولة الآن',
    },
  };

  const pick = (tag) => {
    const wanted = String(tag || '').toLowerCase();
    const known = Object.keys(STRINGS);
    return (
      known.find((code) => code.toLowerCase() === wanted) ??
      known.find((code) => code.toLowerCase().split('-')[0] === wanted.split('-')[0])
    );
  };
  let chosen = null;
  try {
    chosen = localStorage.getItem('webbridge.language');
  } catch {
    // Storage disabled: the browser's language.
  }
  const language = pick(chosen) ?? pick(navigator.language) ?? 'en';
  const text = STRINGS[language];
  document.documentElement.lang = language;
  document.documentElement.dir = language === 'ar' ? 'rtl' : 'ltr';
  document.title = `${text.title} · webbridge`;

  const status = document.getElementById('offline-status');
  const button = document.getElementById('offline-retry');
  document.getElementById('offline-title').textContent = text.title;
  document.getElementById('offline-body').textContent = text.body;
  button.textContent = text.retry;

  let delay = 2;
  let timer = 0;
  let countdown = 0;

  const schedule = () => {
    let left = delay;
    status.textContent = text.wait.replace('{s}', left);
    clearInterval(countdown);
    countdown = setInterval(() => {
      left -= 1;
      if (left > 0) status.textContent = text.wait.replace('{s}', left);
    }, 1000);
    timer = setTimeout(attempt, delay * 1000);
    delay = Math.min(delay * 2, 30);
  };

  async function attempt() {
    clearTimeout(timer);
    clearInterval(countdown);
    status.textContent = text.trying;
    try {
      // Not a navigation, so the service worker passes it to the network as it is.
      const response = await fetch('/', { cache: 'no-store' });
      if (response.ok) {
        status.textContent = text.back;
        location.reload();
        return;
      }
    } catch {
      // Still unreachable.
    }
    schedule();
  }

  button.addEventListener('click', () => {
    delay = 2;
    void attempt();
  });
  addEventListener('online', () => void attempt());
  schedule();
})();

// The service worker. It keeps the page's shell (built files, icons, the offline page) so the
// app starts fast and can be installed, and shows the offline page when the host does not
// answer a navigation. It never stores or answers API requests, the event stream or media:
// everything under /api/ goes to the network untouched.
//
// The build fills in BUILD and SHELL (web/src/pwa/shellPlugin.ts); a new build changes the
// bytes of this file, so the browser installs it and the old cache is deleted.
const BUILD = 'dev';
const SHELL = [];
const CACHE = `webbridge-shell-${BUILD}`;
// Where the app lives: `/`, or a base path (a proxy's mount point). Every URL below is under it.
const BASE = new URL('./', self.location.href).pathname;
const OFFLINE = `${BASE}offline.html`;
const STATIC = [OFFLINE, 'offline.css', 'offline.js', 'manifest.webmanifest', 'icons/icon-192.png'].map(
  (file) => (file.startsWith('/') ? file : `${BASE}${file}`),
);

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([...STATIC, ...SHELL]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((key) => key.startsWith('webbridge-shell-') && key !== CACHE)
            .map((key) => caches.delete(key)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

/** Built files have a content hash in their name: a stored copy is always right. */
async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
  return response;
}

/** The manifest, icons and offline files keep their names: the network's copy first. */
async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const hit = await cache.match(request);
    if (hit) return hit;
    throw error;
  }
}

/** A page load: always the host's page; the offline page only when the host cannot be reached. */
async function navigate(request) {
  try {
    return await fetch(request);
  } catch {
    return (await caches.match(OFFLINE)) ?? Response.error();
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith(`${BASE}api/`)) return;
  if (request.mode === 'navigate') event.respondWith(navigate(request));
  else if (url.pathname.startsWith(`${BASE}assets/`)) event.respondWith(cacheFirst(request));
  else if (url.pathname.startsWith(`${BASE}icons/`) || STATIC.includes(url.pathname))
    event.respondWith(networkFirst(request));
});

// A notification the page showed through this worker (phones have no `new Notification`):
// a tap brings the page to the front.
self.addEventListener('notificationclick', (event) => {
  // A push's notification has its own handler below.
  if (event.notification.data?.kind) return;
  event.notification.close();
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows[0];
      return open ? open.focus() : self.clients.openWindow(BASE);
    }),
  );
});

// ---- Push (docs/PROTOCOL.md, "Push") ----
// The host pushes small payloads (contract: pushPayloadSchema): an approval waits (with a token
// that can decide that one approval, once), it was answered (the notification is replaced), it
// was withdrawn (the notification goes), a reply finished or failed. Nothing here is stored
// except the page's strings; no credential ever reaches this worker.

/** Where the page leaves its strings for notifications, in its language (PushSettings.tsx). */
const PUSH_STRINGS = '/__webbridge/push-strings';
const STRINGS_CACHE = 'webbridge-push-strings';
const ENGLISH = {
  lang: 'en',
  approvalTitle: 'Approval waiting',
  approvalBody: '{tool} wants to: {summary}',
  allow: 'Allow',
  deny: 'Deny',
  decidedAllowDevice: 'Allowed on {device} at {time}',
  decidedDenyDevice: 'Denied on {device} at {time}',
  decidedAllowHost: 'Allowed on the host at {time}',
  decidedDenyHost: 'Denied on the host at {time}',
  decidedAllowCode: 'Allowed with the access code at {time}',
  decidedDenyCode: 'Denied with the access code at {time}',
  replyFinished: 'Reply finished',
  replyFailed: 'Reply failed',
};
const ICON = `${BASE}icons/icon-192.png`;

async function pushStrings() {
  try {
    const stored = await (await caches.open(STRINGS_CACHE)).match(PUSH_STRINGS);
    return stored ? { ...ENGLISH, ...(await stored.json()) } : ENGLISH;
  } catch {
    return ENGLISH;
  }
}

function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** "Allowed on Pixel 7 at 10:14", in the page's language. */
function decidedText(strings, decided) {
  const verb = decided.decision === 'allow' ? 'Allow' : 'Deny';
  const place = decided.by.kind === 'device' ? 'Device' : decided.by.kind === 'host' ? 'Host' : 'Code';
  let time;
  try {
    time = new Intl.DateTimeFormat(strings.lang, { timeStyle: 'short' }).format(decided.at);
  } catch {
    time = new Date(decided.at).toLocaleTimeString();
  }
  const device = decided.by.kind === 'device' ? decided.by.name : '';
  return fill(strings[`decided${verb}${place}`], { device, time });
}

async function closeTagged(tag) {
  for (const notification of await self.registration.getNotifications({ tag })) notification.close();
}

async function showPush(payload) {
  const strings = await pushStrings();
  switch (payload.kind) {
    case 'approval':
      return self.registration.showNotification(strings.approvalTitle, {
        body: fill(strings.approvalBody, { tool: payload.tool, summary: payload.summary }),
        tag: payload.tag,
        renotify: true,
        requireInteraction: true,
        icon: ICON,
        data: payload,
        // Shown where the platform shows actions (Android, desktop); elsewhere a tap opens the app.
        actions: [
          { action: 'allow', title: strings.allow },
          { action: 'deny', title: strings.deny },
        ],
      });
    case 'answered':
      return self.registration.showNotification(decidedText(strings, payload.decided), {
        body: payload.tool,
        tag: payload.tag,
        icon: ICON,
        data: { kind: 'answered', approvalId: payload.approvalId },
      });
    case 'withdrawn':
      return closeTagged(payload.tag);
    case 'reply':
      return self.registration.showNotification(
        payload.outcome === 'finished' ? strings.replyFinished : strings.replyFailed,
        { body: payload.title, tag: payload.tag, icon: ICON, data: payload },
      );
    default:
      return undefined;
  }
}

/**
 * Keeps the worker alive for `work`. A synthetic event (one a test dispatches) cannot be
 * extended, and says so by throwing; the work runs all the same.
 */
function keepAlive(event, work) {
  try {
    event.waitUntil(work);
  } catch {
    // Not dispatched by the browser.
  }
  return work;
}

self.addEventListener('push', (event) => {
  let payload;
  try {
    payload = event.data ? event.data.json() : undefined;
  } catch {
    payload = undefined;
  }
  if (!payload || typeof payload.kind !== 'string') return;
  keepAlive(event, showPush(payload));
});

/** Opens the app (an open window first) at `target`: `?approval=` or `?conversation=`. */
async function openApp(target) {
  const url = new URL(`${BASE}?${new URLSearchParams(target)}`, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows[0];
  if (open) {
    // The page is loaded and connected: it goes to the place itself (useOpenFromPush.ts).
    open.postMessage({ type: 'webbridge:open', ...target });
    return open.focus();
  }
  return self.clients.openWindow(url);
}

/**
 * Answers an approval with its token, as the device it was pushed to. On success the host's own
 * replacement ("Allowed on Pixel 7 at 10:14") follows as a push; when the token no longer works
 * (answered elsewhere, a host restart) or the host cannot be reached, the app opens at it.
 */
async function decideFromNotification(payload, decision) {
  try {
    const response = await fetch(`${BASE}api/push/decide`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: payload.token, decision }),
    });
    if (response.ok) return undefined;
  } catch {
    // No host: the app shows where things stand once it can reach it.
  }
  return openApp({ approval: payload.approvalId, conversation: payload.conversationId });
}

// Push notifications: Allow / Deny answer with the token; a tap opens the app at the approval.
self.addEventListener('notificationclick', (event) => {
  const data = event.notification.data;
  if (!data || typeof data.kind !== 'string') return;
  event.notification.close();
  if (data.kind === 'approval' && (event.action === 'allow' || event.action === 'deny')) {
    keepAlive(event, decideFromNotification(data, event.action));
  } else if (data.kind === 'approval' || data.kind === 'answered') {
    keepAlive(
      event,
      openApp({
        approval: data.approvalId,
        ...(data.conversationId ? { conversation: data.conversationId } : {}),
      }),
    );
  } else {
    keepAlive(event, openApp({ conversation: data.conversationId }));
  }
});

// The service worker, served at /sw.js (built by build/serviceWorkerPlugin.ts). It keeps the
// page's shell so the app starts fast and can be installed, shows the offline page when the host
// does not answer a navigation, and shows the host's pushes in the page's language. Nothing here
// is stored except the shell; no credential ever reaches this worker.
import { onFetch } from './fetchHandler';
import { onNotificationClick } from './onNotificationClick';
import { onPush } from './onPush';
import { scope } from './scope';
import { onActivate, onInstall } from './shellCache';

scope.addEventListener('install', onInstall);
scope.addEventListener('activate', onActivate);
scope.addEventListener('fetch', onFetch);
scope.addEventListener('push', onPush);
scope.addEventListener('notificationclick', onNotificationClick);

import { startMinimalHost } from './startMinimalHost';

const app = await startMinimalHost({ port: Number(process.env.PORT ?? 7878) });
console.log(`minimal host: open ${app.url}/#code=${app.accessCode}`);
process.once('SIGINT', () => void app.close().then(() => process.exit(0)));

import { startMinimalHost } from './startMinimalHost.js';

// The code comes from the environment and is never printed: output is often logged.
const accessCode = process.env.WEBBRIDGE_ACCESS_CODE;
if (!accessCode) throw new Error('Set WEBBRIDGE_ACCESS_CODE to the code browsers should enter.');
const app = await startMinimalHost(accessCode, { port: Number(process.env.PORT ?? 7878) });
console.log(`minimal host: open ${app.url}/ and enter the access code`);
process.once('SIGINT', () => void app.close().then(() => process.exit(0)));

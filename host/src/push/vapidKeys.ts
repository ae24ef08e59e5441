import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';

/** The host's VAPID key pair (RFC 8292), base64url: it signs every push request. */
export interface VapidKeys {
  readonly publicKey: string;
  readonly privateKey: string;
}

/** Where the keys live in the data directory. */
const VAPID_FILE = 'push-vapid.json';

/**
 * The host's VAPID keys: read from the data directory, or made on first use and written there
 * with mode 0600 (the private key lets anyone push to this host's subscribers). The same keys
 * across restarts keep every device's subscription valid.
 */
export function loadVapidKeys(dataDir: string): VapidKeys {
  const file = path.join(dataDir, VAPID_FILE);
  try {
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<VapidKeys>;
    if (typeof stored.publicKey === 'string' && typeof stored.privateKey === 'string') {
      return { publicKey: stored.publicKey, privateKey: stored.privateKey };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const made = webpush.generateVAPIDKeys();
  const keys = { publicKey: made.publicKey, privateKey: made.privateKey };
  fs.mkdirSync(dataDir, { recursive: true });
  // Written to a temporary file created 0600 and renamed: never readable by others, never half written.
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(keys), { mode: 0o600, flag: 'wx' });
  fs.renameSync(temporary, file);
  return keys;
}

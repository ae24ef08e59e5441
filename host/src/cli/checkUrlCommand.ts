import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { keptCode } from './accessCodes';
import { checkUrl, formatFindings } from './checkUrl';

/** The text of `webbridge check-url --help`. */
const CHECK_URL_HELP = `Usage: webbridge check-url <public url> [options]

Checks what a phone meets at the public URL (through a proxy or a tailnet), one line each:
the certificate, whether the host answers to the name, the client address the host believes,
how soon the first event of a stream arrives (buffering) and whether heartbeats pass.
Exits 1 when anything fails.

Options:
  --data-dir <dir>      where the host keeps its access code (default ~/.webbridge); or set
                        WEBBRIDGE_ACCESS_CODE. Without a code the stream is not checked.
  --ca <file>           trust this authority (PEM) besides the system's
  --connect-to <addr>   connect to this address instead of the name's (before DNS is set up)
  --wait-ms <ms>        how long to wait for the first event and a heartbeat (default 40000)
  --help                show this help
`;

/**
 * `webbridge check-url`: parses its arguments, runs {@link checkUrl} and prints its findings.
 * Returns the exit code: 0 when nothing failed, 1 when something did, 2 on bad arguments.
 */
export async function checkUrlCommand(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  out: (text: string) => void,
): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    out(`${error instanceof Error ? error.message : String(error)}\n\n${CHECK_URL_HELP}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    out(CHECK_URL_HELP);
    return 0;
  }
  const [url] = positionals;
  if (url === undefined || positionals.length > 1 || !/^https?:\/\//.test(url)) {
    out(`Give one URL, such as https://box.tailnet.ts.net.\n\n${CHECK_URL_HELP}`);
    return 2;
  }
  const waitMs = values['wait-ms'] === undefined ? undefined : Number(values['wait-ms']);
  if (waitMs !== undefined && !(Number.isInteger(waitMs) && waitMs > 0)) {
    out(`--wait-ms must be a positive integer.\n\n${CHECK_URL_HELP}`);
    return 2;
  }
  const dataDir = path.resolve(values['data-dir'] ?? path.join(os.homedir(), '.webbridge'));
  const accessCode = env.WEBBRIDGE_ACCESS_CODE?.trim() || keptCode(dataDir, 'access');
  const findings = await checkUrl(url, {
    ...(accessCode === undefined ? {} : { accessCode }),
    ...(values.ca === undefined ? {} : { ca: readFileSync(values.ca, 'utf8') }),
    ...(values['connect-to'] === undefined ? {} : { connectTo: values['connect-to'] }),
    ...(waitMs === undefined ? {} : { waitMs }),
  });
  out(`${formatFindings(findings)}\n`);
  return findings.some((f) => f.verdict === 'fail') ? 1 : 0;
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      ca: { type: 'string' },
      'connect-to': { type: 'string' },
      'wait-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

#!/usr/bin/env -S node --max-semi-space-size=2
import { connectionBanner } from './cli/connectionBanner';
import { generateAccessCode } from './cli/generateAccessCode';
import { parseServeArgs, SERVE_HELP, type ServeConfig } from './cli/parseServeArgs';
import { startConsole } from './cli/startConsole';
import { createModelProviders } from './models/createModelProviders';
import { startHost } from './startHost';

/** Longest time shutdown may take before the process exits anyway. */
const SHUTDOWN_BUDGET_MS = 1_800;

async function serve(config: ServeConfig): Promise<void> {
  let accessCode = config.accessCode ?? generateAccessCode();
  const providers = await createModelProviders({ openai: config.openai }, (message) =>
    process.stderr.write(`webbridge: ${message}\n`),
  );
  // The key now lives in the provider's memory only. Commands that tools run inherit the
  // environment, so no variable may still hold it, whatever its name.
  const apiKey = config.openai?.apiKey;
  if (apiKey) {
    for (const [name, value] of Object.entries(process.env)) if (value === apiKey) delete process.env[name];
  }
  const host = await startHost({
    providers,
    dataDir: config.dataDir,
    accessCode,
    port: config.port,
    hostname: config.hostname,
    echoDelayMs: config.echoDelayMs,
    workspaceRoots: config.workspaceRoots,
    // A request line per request would bury the console's prompt; a service logs them all.
    logLevel: config.logLevel ?? (config.console && process.stdin.isTTY ? 'warn' : 'info'),
    // Log lines go to stderr: stdout is for the person (and scripts) reading the URL and code.
    tuning: { logDestination: process.stderr },
    ...(config.heartbeatMs === undefined ? {} : { heartbeatMs: config.heartbeatMs }),
    ...(config.mediaTtlMs === undefined ? {} : { mediaTtlMs: config.mediaTtlMs }),
    ...(config.uploadLimit === undefined ? {} : { uploadLimit: config.uploadLimit }),
  });
  // Handlers first: a signal that arrives while the banner is drawn still shuts down cleanly.
  let closeConsole: (() => void) | undefined;
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    closeConsole?.();
    const deadline = setTimeout(() => process.exit(0), SHUTDOWN_BUDGET_MS);
    deadline.unref();
    host.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  const [primary = host.url, ...others] = host.address.urls;
  // Tests and scripts parse this exact first line for the port.
  process.stdout.write(`webbridge listening on ${primary}\n`);
  for (const url of others) process.stdout.write(`  also reachable at ${url}\n`);
  // The one place the code is ever printed: the person at the host reads it off the screen.
  process.stdout.write(`access code: ${accessCode}\n`);
  const models = host.controller.readState().models.list.map((m) => m.id);
  process.stdout.write(`models: ${models.join(', ')}\n`);
  process.stdout.write(`${await connectionBanner(host.address.urls, accessCode)}\n`);

  if (config.console && process.stdin.isTTY && !stopping) {
    closeConsole = startConsole({
      host,
      code: () => accessCode,
      setCode: (code) => {
        accessCode = code;
        host.bridge.setAccessCode(code);
      },
      quit: shutdown,
      input: process.stdin,
      output: process.stdout,
    });
  }
}

async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(SERVE_HELP);
    return;
  }
  if (command !== 'serve') {
    process.stderr.write(`Unknown command "${command}".\n\n${SERVE_HELP}`);
    process.exitCode = 2;
    return;
  }
  let config: ServeConfig;
  try {
    config = parseServeArgs(rest);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${SERVE_HELP}`);
    process.exitCode = 2;
    return;
  }
  if (config.help) {
    process.stdout.write(SERVE_HELP);
    return;
  }
  await serve(config);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`webbridge: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

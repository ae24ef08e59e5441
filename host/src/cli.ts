#!/usr/bin/env -S node --max-semi-space-size=2
import { chooseAccessCode, chooseViewCode, forgetCode, keepCode } from './cli/accessCodes';
import { cliLogging } from './cli/cliLogging';
import { authorityBanner, connectionBanner } from './cli/connectionBanner';
import { languageFromEnvironment } from './cli/languageFromEnvironment';
import { parseServeArgs, SERVE_HELP, type ServeConfig } from './cli/parseServeArgs';
import { handOverSecrets, receiveSecrets } from './cli/secretHandover';
import { startConsole } from './cli/startConsole';
import { createModelProviders } from './models/createModelProviders';
import { startHost } from './startHost';

/** Longest time shutdown may take before the process exits anyway. */
const SHUTDOWN_BUDGET_MS = 1_800;

async function serve(config: ServeConfig): Promise<void> {
  // Read before anything starts: a bad code file is a startup error, like a bad certificate.
  const chosen = chooseAccessCode(config.dataDir, config.accessCode);
  let accessCode = chosen.code;
  let viewCode = chooseViewCode(config.dataDir, config.viewCode)?.code;
  if (config.accessCode?.source === 'flag' || config.viewCode?.source === 'flag') {
    process.stderr.write(
      'webbridge: warning: a code on the command line can be read by other local users (ps); use --access-code-file or WEBBRIDGE_ACCESS_CODE.\n',
    );
  }
  // Commands that tools run inherit the environment: no variable may still hold a code (when
  // the host was started directly, without the handover).
  delete process.env.WEBBRIDGE_ACCESS_CODE;
  delete process.env.WEBBRIDGE_VIEW_CODE;
  const providers = await createModelProviders({ openai: config.openai }, (message) =>
    process.stderr.write(`webbridge: ${message}\n`),
  );
  // The key now lives in the provider's memory only. Commands that tools run inherit the
  // environment, so no variable may still hold it, whatever its name.
  const apiKey = config.openai?.apiKey;
  if (apiKey) {
    for (const [name, value] of Object.entries(process.env)) if (value === apiKey) delete process.env[name];
  }
  // A request line per request would bury the console's prompt; a service logs them all.
  const logLevel = config.logLevel ?? (config.console && process.stdin.isTTY ? 'warn' : 'info');
  // Log lines go to stderr (stdout is for the person and scripts reading the URL and code),
  // readable on a terminal and JSON elsewhere.
  const logging = cliLogging(process.stderr, logLevel);
  const host = await startHost({
    providers,
    dataDir: config.dataDir,
    accessCode,
    ...(viewCode === undefined ? {} : { viewCode }),
    transport: {
      tlsOnLoopback: config.tls,
      insecureHttp: config.insecureHttp,
      ...(config.tlsCert === undefined ? {} : { certFile: config.tlsCert }),
      ...(config.tlsKey === undefined ? {} : { keyFile: config.tlsKey }),
    },
    port: config.port,
    hostname: config.hostname,
    echoDelayMs: config.echoDelayMs,
    workspaceRoots: config.workspaceRoots,
    logLevel,
    tuning: { logDestination: logging.destination },
    mcpLog: logging.mcpLog,
    agents: {
      flags: config.agents,
      ...(config.agentsConfig === undefined ? {} : { configFile: config.agentsConfig }),
      ...(config.knownAgents && process.env.PATH !== undefined ? { knownOnPath: process.env.PATH } : {}),
      log: logging.agentLog,
    },
    push: { onReport: logging.pushLog, replyTitles: config.pushReplyTitles },
    language: config.language ?? languageFromEnvironment(process.env),
    ...(config.mcpConfig === undefined ? {} : { mcpConfig: config.mcpConfig }),
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
  const mcpServers = host.mcp?.servers().map((server) => server.name) ?? [];
  if (mcpServers.length > 0) process.stdout.write(`MCP servers: ${mcpServers.join(', ')}\n`);
  const agentNames = host.agents.list().map((agent) => agent.name);
  if (agentNames.length > 0) process.stdout.write(`agents: builtin, ${agentNames.join(', ')}\n`);
  if (host.address.scheme === 'http' && config.insecureHttp) {
    process.stdout.write(
      'WARNING: plain HTTP off loopback (--insecure-http): anyone on this network can read the access code and every message.\n',
    );
  }
  if (viewCode !== undefined) process.stdout.write(`view code (watch only): ${viewCode}\n`);
  // The QR code and the printed link carry a one-time pairing token, never the code.
  process.stdout.write(`${await connectionBanner(host.address.urls, host.bridge.pairingToken('control'))}\n`);
  if (host.address.authority) process.stdout.write(`${await authorityBanner(host.address.authority)}\n`);

  if (config.console && process.stdin.isTTY && !stopping) {
    closeConsole = startConsole({
      host,
      code: () => accessCode,
      setCode: (code) => {
        accessCode = code;
        host.bridge.setAccessCode(code);
        // Kept, so the next start (and the phones paired with it) use the new code.
        keepCode(config.dataDir, 'access', code);
      },
      viewCode: () => viewCode,
      setViewCode: (code) => {
        viewCode = code;
        host.bridge.setViewCode(code);
        if (code === undefined) forgetCode(config.dataDir, 'view');
        else keepCode(config.dataDir, 'view', code);
      },
      insecureHttp: host.address.scheme === 'http' && config.insecureHttp,
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
  // Secrets in the environment stay readable in /proc/<pid>/environ for the life of a process:
  // they are erased from it, or (where that fails) the host runs in a new process without them
  // and gets them over a pipe (cli/secretHandover.ts).
  const handedOver = handOverSecrets(argv);
  if (handedOver) {
    process.exitCode = await handedOver;
    return;
  }
  Object.assign(process.env, receiveSecrets());
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

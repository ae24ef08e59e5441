import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { isSecretName } from '../controller/tools/commandEnv';
import { eraseFromEnviron } from './eraseFromEnviron';

/**
 * Set (to the descriptor's number) in the environment of a CLI started by
 * {@link handOverSecrets}: the secrets wait on that descriptor. Not a secret itself.
 */
const HANDOVER_ENV = 'WEBBRIDGE_SECRETS_FD';
/** The descriptor the secrets travel on: the first after stdin, stdout and stderr. */
const HANDOVER_FD = 3;

/** Shortest secret whose copies under other names are removed too. */
const MIN_COPY_LENGTH = 8;

/** Variables that hold a code or a model key, besides the one `--openai-api-key-env` names. */
const SECRET_VARIABLES = ['WEBBRIDGE_ACCESS_CODE', 'WEBBRIDGE_VIEW_CODE', 'OPENAI_API_KEY'] as const;

/**
 * Keeps the CLI's secrets out of every process's initial environment, which Linux shows in
 * `/proc/<pid>/environ` to every process of the same user for as long as it runs (deleting from
 * `process.env` does not change it): a command the host runs, or a stdio MCP server, could read
 * the access code and the model key there.
 *
 * On Linux the secrets (and copies of them under other names) are erased from this process's
 * own environment region ({@link eraseFromEnviron}); `process.env` keeps them, in memory only,
 * and this process runs the host. Where that is not possible, the CLI starts again (with the
 * same `argv`: its command and flags) without them in its environment and gets them over a pipe
 * on descriptor 3; this process then stays as its parent only to pass on signals and its exit
 * status (Node 20 cannot replace its own image), and its own environment still holds them.
 * Resolves with the exit code to end with, or undefined when this process carries on (nothing
 * needed hiding, or it was hidden in place).
 */
export function handOverSecrets(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> | undefined {
  if (env[HANDOVER_ENV] !== undefined) return undefined;
  const names = secretNames(argv, env).filter((name) => env[name] !== undefined && env[name] !== '');
  if (names.length === 0) return undefined;
  const secrets: Record<string, string> = {};
  for (const name of names) secrets[name] = env[name] as string;
  // Long values only: an API key of `ollama` must not take USER=ollama with it.
  const values = new Set(Object.values(secrets).filter((value) => value.length >= MIN_COPY_LENGTH));
  if (env === process.env) {
    const copies = Object.keys(env).filter(
      (name) => !Object.hasOwn(secrets, name) && values.has(env[name] as string),
    );
    if (eraseFromEnviron([...names, ...copies])) {
      // A copy under another name is not wanted (the handover drops them too).
      for (const name of copies) delete env[name];
      return undefined;
    }
  }
  const clean: NodeJS.ProcessEnv = { [HANDOVER_ENV]: String(HANDOVER_FD) };
  // A copy of a secret under another name would give it away all the same.
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && !values.has(value)) clean[name] = value;
  const script = process.argv[1];
  if (script === undefined) return undefined;
  const child = spawn(process.execPath, [...process.execArgv, script, ...argv], {
    env: clean,
    // The IPC channel is how the host learns that this process is gone (killed with SIGKILL,
    // say), so that it never outlives the command a person or a supervisor started.
    stdio: ['inherit', 'inherit', 'inherit', 'pipe', 'ipc'],
  });
  const pipe = child.stdio[HANDOVER_FD] as NodeJS.WritableStream;
  pipe.on('error', () => undefined);
  pipe.end(JSON.stringify(secrets));
  // A terminal's Ctrl-C reaches both processes; a service manager's SIGTERM only this one.
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const handlers = signals.map((signal) => [signal, forward(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  return new Promise((resolve) => {
    child.once('error', (error) => {
      process.stderr.write(`webbridge: cannot start: ${error.message}\n`);
      resolve(1);
    });
    child.once('exit', (code, signal) => {
      for (const [name, handler] of handlers) process.off(name, handler);
      if (signal !== null) {
        // Ended by a signal: end the same way, so a shell or a supervisor sees what happened.
        process.kill(process.pid, signal);
        return;
      }
      resolve(code ?? 1);
    });
  });
}

/**
 * The secrets a CLI started by {@link handOverSecrets} was given over its descriptor 3 (empty
 * when it was started directly), read once and closed. Such a CLI also shuts down when its
 * parent ends. Put back into `process.env`, they are
 * where the host expects them, yet not in what `/proc/<pid>/environ` shows (Node's `process.env`
 * is a copy; writing to it does not change the process's initial environment).
 */
export function receiveSecrets(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  if (env[HANDOVER_ENV] !== String(HANDOVER_FD)) return {};
  delete env[HANDOVER_ENV];
  // The parent went away without passing a signal on: shut down as if told to.
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  process.channel?.unref();
  let text: string;
  try {
    text = fs.readFileSync(HANDOVER_FD, 'utf8');
  } finally {
    fs.closeSync(HANDOVER_FD);
  }
  const parsed: unknown = JSON.parse(text);
  const secrets: Record<string, string> = {};
  if (typeof parsed === 'object' && parsed !== null) {
    for (const [name, value] of Object.entries(parsed)) if (typeof value === 'string') secrets[name] = value;
  }
  return secrets;
}

/**
 * The variables that may hold secrets for a `serve` with `argv`: the codes, the model key's
 * (default or named by `--openai-api-key-env`), and any named like a credential (`GITHUB_TOKEN`
 * for an MCP server, say), which the host gets back in `process.env`, in memory only.
 */
function secretNames(argv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const names: string[] = [...SECRET_VARIABLES, ...Object.keys(env).filter(isSecretName)];
  argv.forEach((arg, i) => {
    if (arg === '--openai-api-key-env' && argv[i + 1] !== undefined) names.push(argv[i + 1] as string);
    else if (arg.startsWith('--openai-api-key-env=')) names.push(arg.slice('--openai-api-key-env='.length));
  });
  return names;
}

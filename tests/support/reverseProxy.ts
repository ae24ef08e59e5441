import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalAuthority } from '../../server/src/adapters/tls/LocalAuthority';

/** The reverse proxies the tests run: Debian's packages, started on loopback. */
export type ProxyKind = 'nginx' | 'caddy';

/** The name the test proxies serve (a local name, so the test authority may vouch for it). */
export const PROXY_NAME = 'bridge.internal';

/** A test certificate authority and a serving certificate for {@link PROXY_NAME}. */
export interface ProxyCertificate {
  /** The authority's certificate (PEM): what a phone would trust. */
  readonly caPem: string;
  readonly certFile: string;
  readonly keyFile: string;
}

/** Makes a throwaway authority (the host's own kind, server/src/tls) and a certificate for the name. */
export async function proxyCertificate(name = PROXY_NAME): Promise<ProxyCertificate> {
  const dir = mkdtempSync(join(tmpdir(), 'webbridge-proxy-ca-'));
  const authority = await LocalAuthority.open(join(dir, 'ca'));
  const { certificatePem, keyPem } = await authority.issue([name], 1);
  const certFile = join(dir, 'server.crt');
  const keyFile = join(dir, 'server.key');
  writeFileSync(certFile, certificatePem);
  writeFileSync(keyFile, keyPem, { mode: 0o600 });
  return { caPem: authority.certificatePem, certFile, keyFile };
}

/** How a test proxy is configured. */
export interface ProxyOptions {
  readonly kind: ProxyKind;
  readonly certificate: ProxyCertificate;
  /** The host's port on 127.0.0.1. */
  readonly upstreamPort: number;
  /** The proxy's port on 127.0.0.1 (pick one with {@link freePort}). */
  readonly port: number;
  /**
   * How long the proxy keeps a response open with nothing from the host, in seconds (nginx's
   * `proxy_read_timeout`, Caddy's `read_timeout`). @default 60 (nginx's default)
   */
  readonly idleTimeoutS?: number;
  /**
   * nginx only: buffer responses whatever the host asks (`proxy_ignore_headers
   * X-Accel-Buffering`, gzip on for event streams), as a carelessly configured proxy does.
   */
  readonly buffering?: boolean;
  /**
   * nginx only: serve the host under this path alone (`/webbridge`), passed on as it is, as a
   * proxy that mounts several apps on one name does; nothing else of the name reaches the host.
   */
  readonly basePath?: string;
}

/** A proxy running as a child process. */
export interface RunningProxy {
  /** `https://bridge.internal:<port>`. */
  readonly url: string;
  /** The configuration file it runs with (docs/HOST.md shows the same). */
  readonly config: string;
  /** Stops it and starts it again on the same port (every open connection is cut). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The nginx configuration the tests (and docs/HOST.md) use, for a host on `upstreamPort`. */
function nginxConfig(options: ProxyOptions, dir: string): string {
  const idle = options.idleTimeoutS ?? 60;
  const buffering = options.buffering
    ? `    proxy_buffering on;
    proxy_ignore_headers X-Accel-Buffering;
    gzip on;
    gzip_types text/event-stream;
`
    : '';
  // Root runs the workers as nobody, who could not read the key in a 0700 folder.
  const user = process.getuid?.() === 0 ? 'user root;\n' : '';
  return `${user}worker_processes 1;
pid ${dir}/nginx.pid;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${options.port} ssl http2;
    server_name ${PROXY_NAME};
    ssl_certificate ${options.certificate.certFile};
    ssl_certificate_key ${options.certificate.keyFile};
    # Uploads up to the host's limit (25 MiB by default), streamed as they arrive.
    client_max_body_size 30m;
    proxy_request_buffering off;
    location ${options.basePath === undefined ? '/' : `${options.basePath}/`} {
      proxy_pass http://127.0.0.1:${options.upstreamPort};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_read_timeout ${idle}s;
${buffering}    }
  }
}
`;
}

/** The Caddyfile the tests (and docs/HOST.md) use, for a host on `upstreamPort`. */
function caddyConfig(options: ProxyOptions): string {
  const idle = options.idleTimeoutS ?? 60;
  return `{
	admin off
	auto_https disable_redirects
	grace_period 1s
}
https://${PROXY_NAME}:${options.port} {
	bind 127.0.0.1
	tls ${options.certificate.certFile} ${options.certificate.keyFile}
	reverse_proxy 127.0.0.1:${options.upstreamPort} {
		transport http {
			read_timeout ${idle}s
		}
	}
}
`;
}

/** Starts nginx or Caddy on 127.0.0.1, terminating TLS for {@link PROXY_NAME} and forwarding to the host. */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const dir = mkdtempSync(join(tmpdir(), `webbridge-${options.kind}-`));
  let command: string;
  let args: string[];
  let config: string;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: dir,
    XDG_DATA_HOME: join(dir, 'data'),
    XDG_CONFIG_HOME: join(dir, 'config'),
  };
  switch (options.kind) {
    case 'nginx': {
      config = nginxConfig(options, dir);
      const file = join(dir, 'nginx.conf');
      writeFileSync(file, config);
      command = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
      args = ['-p', dir, '-e', join(dir, 'error.log'), '-c', file, '-g', 'daemon off;'];
      break;
    }
    case 'caddy': {
      config = caddyConfig(options);
      const file = join(dir, 'Caddyfile');
      writeFileSync(file, config);
      mkdirSync(join(dir, 'data'), { recursive: true });
      command = process.env.CADDY_PATH ?? 'caddy';
      args = ['run', '--config', file, '--adapter', 'caddyfile'];
      break;
    }
    default: {
      const never: never = options.kind;
      throw new Error(`unknown proxy ${String(never)}`);
    }
  }
  let child: ChildProcess | undefined;
  let output = '';
  const start = async () => {
    output = '';
    const started = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    started.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    started.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child = started;
    await listening(options.port, started, () => output);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    // nginx's fast shutdown (TERM) closes open connections at once, as a crash or restart would.
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `https://${PROXY_NAME}:${options.port}`,
    config,
    async restart() {
      await stop();
      await start();
    },
    stop,
  };
}

/** Resolves once something accepts connections on the port; rejects if the proxy exits first. */
async function listening(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the proxy exited (${child.exitCode}): ${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`the proxy did not listen on ${port}: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

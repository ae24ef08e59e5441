import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** How long a closing connection keeps reading what the client still sends, at most. */
const LINGER_MS = 2_000;

const lingering = new WeakSet<Duplex>();

/**
 * Closes a connection without resetting it: a FIN after everything written, then whatever the
 * client still sends (the rest of a body the server refused) is read and dropped until the
 * client closes too, or `LINGER_MS` pass. Closing a socket with unread input makes the kernel
 * answer with a reset, which can destroy a response the client has not read yet (Apache's
 * and nginx's "lingering close" exist for the same reason).
 */
export function lingeringClose(socket: Duplex): void {
  if (socket.destroyed || lingering.has(socket)) return;
  lingering.add(socket);
  // Nothing after this point is a request this server will answer: the HTTP parser, which
  // reads through 'data' listeners or natively until one is added, stops here.
  socket.removeAllListeners('data');
  socket.on('data', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const written = () => {
    if (socket.readableEnded) close();
    else timer = setTimeout(close, LINGER_MS).unref();
  };
  socket.once('end', () => {
    if (socket.writableFinished) close();
  });
  socket.once('error', close);
  socket.once('close', () => clearTimeout(timer));
  socket.end();
  if (socket.writableFinished) written();
  else socket.once('finish', written);
  socket.resume();
  restartReading(socket);
}

/** The native stream handle under a plain TCP socket, as far as reading goes. */
interface ReadableHandle {
  reading?: boolean;
  readStart?: () => number;
}

/**
 * Node's HTTP server reads a plain TCP socket natively and, while it does, restarts a paused
 * socket itself (on 'resume'). Detached from it, a socket it had paused for back-pressure
 * stays stopped, since the stream believes a read is still pending; restart the handle the
 * way Node's HTTP server does.
 */
function restartReading(socket: Duplex): void {
  const handle = (socket as { _handle?: ReadableHandle | null })._handle;
  if (handle?.reading === false && typeof handle.readStart === 'function') {
    handle.reading = true;
    handle.readStart();
  }
}

/**
 * Makes the HTTP server close `socket` with {@link lingeringClose} wherever it would end it
 * abruptly: after a `Connection: close` response Node calls `destroySoon`, which destroys the
 * socket once the response is written, unread request bytes or not.
 */
export function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => lingeringClose(socket);
}

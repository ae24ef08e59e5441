import type { Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import type { Server as TlsServer } from 'node:tls';

/** The first byte of every TLS connection: a handshake record. */
const TLS_HANDSHAKE = 0x16;

/**
 * Makes the TLS server tell TLS from plain HTTP on its port by the first byte each client
 * sends: a handshake goes on to TLS, anything else to `plain`, so a person who typed
 * `http://` gets an answer instead of a reset. A client that sends nothing is cut after
 * `firstByteTimeoutMs`, like a slow-headers client, and so is a plain-HTTP client still
 * connected that long after its first byte. Returns the plain sockets still open, so
 * the listener can close them on stop.
 */
export function sniffTls(server: TlsServer, plain: HttpServer, firstByteTimeoutMs: number): Set<Socket> {
  const toTls = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  const plainSockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    socket.setTimeout(firstByteTimeoutMs, () => socket.destroy());
    socket.once('error', () => socket.destroy());
    socket.once('data', (chunk: Buffer) => {
      socket.setTimeout(0);
      socket.pause();
      // Given back before anyone else reads, so TLS or HTTP parse the connection from byte one.
      socket.unshift(chunk);
      if (chunk[0] === TLS_HANDSHAKE) {
        // TLS reads what is buffered itself (on the next tick); resuming would drop it.
        for (const listener of toTls) listener.call(server, socket);
        return;
      }
      plainSockets.add(socket);
      // The plain server never listens, so Node's headers timeout (enforced by a listening
      // server's periodic check) never applies to it: a client that sends a byte and goes
      // silent would hold the socket for ever. Its one answer is immediate; a deadline cuts it.
      const deadline = setTimeout(() => socket.destroy(), firstByteTimeoutMs);
      deadline.unref();
      socket.once('close', () => {
        clearTimeout(deadline);
        plainSockets.delete(socket);
      });
      plain.emit('connection', socket);
      // HTTP listens for 'data' but leaves a paused socket paused.
      socket.resume();
    });
  });
  return plainSockets;
}

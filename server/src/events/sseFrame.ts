const encoder = new TextEncoder();

/**
 * One server-sent event, compact: no optional spaces after the colons, since a streamed word
 * should cost its own bytes plus a few dozen bytes of framing. `data` must be one line (JSON).
 * An undefined `event` writes no event line (the SSE default type: appends on a stream that
 * opted in to compact frames).
 */
export function sseFrame(event: string | undefined, data: string, id?: number): Uint8Array {
  const eventLine = event === undefined ? '' : `event:${event}\n`;
  const idLine = id === undefined ? '' : `id:${id}\n`;
  return encoder.encode(`${eventLine}${idLine}data:${data}\n\n`);
}

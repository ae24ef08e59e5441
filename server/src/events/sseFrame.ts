const encoder = new TextEncoder();

/**
 * One server-sent event, compact: no optional spaces after the colons, since a streamed word
 * should cost its own bytes plus a few dozen bytes of framing. `data` must be one line (JSON).
 */
export function sseFrame(event: string, data: string, id?: number): Uint8Array {
  const idLine = id === undefined ? '' : `id:${id}\n`;
  return encoder.encode(`event:${event}\n${idLine}data:${data}\n\n`);
}

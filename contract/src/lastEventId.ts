/**
 * The `Last-Event-ID` a client sends to resume: `<instanceId>.<seq>`. The instance id is part
 * of it because seqs restart with every run of the host: a seq from another run (or a bare
 * seq, which cannot be checked) starts over with a snapshot.
 *
 * @example
 * ```ts
 * headers['Last-Event-ID'] = formatLastEventId(sync.snapshot.instanceId, sync.seq);
 * ```
 */
export function formatLastEventId(instanceId: string, seq: number): string {
  return `${instanceId}.${seq}`;
}

const LAST_EVENT_ID = /^([A-Za-z0-9_-]{1,64})\.(\d{1,15})$/;

/** The instance id and seq of a `Last-Event-ID` built by {@link formatLastEventId}; undefined for anything else. */
export function parseLastEventId(
  header: string | undefined,
): { instanceId: string; seq: number } | undefined {
  const match = header === undefined ? null : LAST_EVENT_ID.exec(header.trim());
  if (!match) return undefined;
  return { instanceId: match[1]!, seq: Number(match[2]) };
}

/**
 * The `ETag` of GET /api/state: the event id the state is at, quoted as an entity tag
 * (`"<instanceId>.<seq>"`). A client that shows that state resumes the event stream from it
 * (`Last-Event-ID: <instanceId>.<seq>`) instead of receiving the same state again as a snapshot.
 *
 * @example
 * ```ts
 * headers.ETag = formatStateTag(snapshot.instanceId, seq); // "i_Q7vX2k.43" with its quotes
 * ```
 */
export function formatStateTag(instanceId: string, seq: number): string {
  return `"${formatLastEventId(instanceId, seq)}"`;
}

/** The instance id and seq of an `ETag` built by {@link formatStateTag}; undefined for anything else. */
export function parseStateTag(
  etag: string | null | undefined,
): { instanceId: string; seq: number } | undefined {
  const match = etag === null || etag === undefined ? null : /^"([^"]*)"$/.exec(etag.trim());
  return match ? parseLastEventId(match[1]) : undefined;
}

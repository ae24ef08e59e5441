import type { AgentLog } from './AgentLog';

/** Most bytes of stderr kept to explain why an agent stopped. */
const TAIL_CHARS = 4096;
/** Longest line logged; the rest of it is cut. */
const MAX_LINE = 1000;
/** Lines logged per window; the rest are counted, so a chatty agent cannot flood the host log. */
const LINES_PER_WINDOW = 100;
const WINDOW_MS = 10_000;
/** Values shorter than this are not scrubbed: "1" or "on" would mangle every line. */
const MIN_SECRET_LENGTH = 4;

/**
 * An agent's stderr: each line goes to the host log (scrubbed of the values its entry
 * configures, cut to a sane length, rate-limited), and the last few kilobytes are kept for the
 * message shown when it fails. Clients never see it except through that message.
 */
export class StderrTail {
  private readonly agent: string;
  private readonly log: AgentLog;
  private readonly secrets: readonly string[];
  private readonly decoder = new TextDecoder();
  private tail = '';
  private pending = '';
  private windowStart = 0;
  private lines = 0;
  private skipped = 0;

  constructor(agent: string, log: AgentLog, configured: Readonly<Record<string, string>>) {
    this.agent = agent;
    this.log = log;
    this.secrets = [...new Set(Object.values(configured).filter((v) => v.length >= MIN_SECRET_LENGTH))].sort(
      (a, b) => b.length - a.length,
    );
  }

  add(chunk: Uint8Array): void {
    const text = this.scrub(this.decoder.decode(chunk, { stream: true }));
    this.tail = (this.tail + text).slice(-TAIL_CHARS);
    this.pending += text;
    const parts = this.pending.split('\n');
    this.pending = parts.pop() ?? '';
    // A line that never ends is logged in pieces rather than held without bound.
    if (this.pending.length > MAX_LINE) {
      parts.push(this.pending);
      this.pending = '';
    }
    for (const line of parts) this.line(line);
  }

  /** The last non-empty lines of stderr, on one line, at most 500 characters. */
  lastLines(): string {
    const lines = this.tail
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .slice(-3)
      .join(' | ');
    return lines.length > 500 ? `…${lines.slice(-499)}` : lines;
  }

  private line(raw: string): void {
    const line = raw.trimEnd();
    if (line === '') return;
    const now = Date.now();
    if (now - this.windowStart >= WINDOW_MS) {
      if (this.skipped > 0) {
        this.log('info', `[stderr] (${this.skipped} lines not logged: too many)`, this.agent);
      }
      this.windowStart = now;
      this.lines = 0;
      this.skipped = 0;
    }
    if (++this.lines > LINES_PER_WINDOW) {
      this.skipped++;
      return;
    }
    this.log('info', `[stderr] ${line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line}`, this.agent);
  }

  private scrub(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join('[redacted]');
    return out;
  }
}

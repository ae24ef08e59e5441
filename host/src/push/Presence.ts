/** How long a page's "visible" report holds: it reports every 20 s while visible. */
const PRESENCE_TTL_MS = 45_000;

/**
 * Which devices have a page on screen now, as the pages report it (`reportPresence`): a page
 * reports when it becomes visible or hidden, and every 20 s while visible. A report older than
 * {@link PRESENCE_TTL_MS} no longer counts: a page frozen, closed or cut off stops reporting,
 * and its device gets pushes again within 45 s.
 */
export class Presence {
  private readonly seen = new Map<string, number>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Records a device's report. */
  report(deviceId: string, visible: boolean): void {
    if (visible) this.seen.set(deviceId, this.now());
    else this.seen.delete(deviceId);
  }

  /** Whether a device's page is visible and has said so recently. */
  isPresent(deviceId: string): boolean {
    const at = this.seen.get(deviceId);
    return at !== undefined && this.now() - at < PRESENCE_TTL_MS;
  }

  /** Forgets a device. */
  forget(deviceId: string): void {
    this.seen.delete(deviceId);
  }
}

/** The Cache Storage bucket where the service worker leaves a ticket for each tap it opens a window for. */
const TAP_TICKETS = 'webbridge-tap-tickets';

/** How long a ticket stays good: the window it was made for opens within seconds. */
const TICKET_LIFETIME_MS = 120_000;

/** The query parameter that carries a ticket in the address of a window the worker opened. */
export const TAP_PARAM = 'tap';

function ticketUrl(ticket: string): string {
  return `/__tap-ticket/${encodeURIComponent(ticket)}`;
}

/**
 * Made by the service worker when a tapped notification opens a new window: a random ticket,
 * put in the window's address and kept in this origin's Cache Storage. A link anyone may send
 * (`/?approval=…`) only shows the conversation it names, since switching the host moves every
 * device (useOpenFromPush.ts); the page redeems the ticket ({@link redeemTapTicket}) to know
 * that the person tapped a notification of this origin's worker, and goes there at once.
 */
export async function issueTapTicket(): Promise<string> {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const ticket = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  const cache = await caches.open(TAP_TICKETS);
  await cache.put(ticketUrl(ticket), new Response(String(Date.now())));
  return ticket;
}

/**
 * Whether `ticket` is one the service worker made for a tap, in the last two minutes. A ticket
 * works once: it is deleted here, whatever the answer. False where Cache Storage is unavailable.
 */
export async function redeemTapTicket(ticket: string): Promise<boolean> {
  if (typeof caches === 'undefined' || !/^[0-9a-f]{32}$/.test(ticket)) return false;
  try {
    const cache = await caches.open(TAP_TICKETS);
    const found = await cache.match(ticketUrl(ticket));
    await cache.delete(ticketUrl(ticket));
    if (found === undefined) return false;
    const issuedAt = Number(await found.text());
    return Date.now() - issuedAt <= TICKET_LIFETIME_MS;
  } catch {
    return false;
  }
}

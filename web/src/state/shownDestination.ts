import type { Destination } from '@webbridge/client-sdk';

/**
 * The destination a confirmation names, and so the one its button sends with: the place the
 * state on screen says a send would land, once that state is at least as new as the 409's
 * `named` destination (`current` is `destinationOf` the state on screen). A host that moves on
 * while the dialog is open thus renames the dialog with the page, and the click sends with the
 * identity of what it shows.
 */
export function shownDestination(named: Destination, current: Destination): Destination {
  // Older only when the SDK could not fetch the state after the 409 and named the place from
  // the 409 body; the stream catches up soon. Revisions compare across host restarts too: a
  // host's sessionRevision never repeats for its data, it continues above the last run's.
  return current.sessionRevision < named.sessionRevision ? named : current;
}

import { type Destination, destinationOf } from '@webbridge/client-sdk';
import type { Snapshot } from './types';

/**
 * The destination a confirmation names, and so the one its button sends with: the place the
 * state on screen says a send would land, once that state is at least as new as the 409's
 * `named` destination. A host that moves on while the dialog is open thus renames the dialog
 * with the page, and the click sends with the identity of what it shows.
 */
export function shownDestination(named: Destination, snapshot: Snapshot): Destination {
  // Older only when the SDK could not fetch the state after the 409 and named the place from
  // the 409 body; the stream catches up soon. Revisions compare across host restarts too: a
  // host's sessionRevision never repeats for its data, it continues above the last run's.
  return snapshot.sessionRevision < named.sessionRevision ? named : destinationOf(snapshot);
}

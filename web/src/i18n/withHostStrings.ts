import type { ConnectionStringKey } from '@webbridge/client-sdk';
import { CONNECTION_STRINGS } from '@webbridge/client-sdk';
import type { Catalogue } from './catalogue';

/**
 * A catalogue with the host's own wording of the connection page's strings, when the page
 * speaks the host's language; keys the page does not know, and empty values, are ignored.
 */
export function withHostStrings(catalogue: Catalogue, fromHost: Readonly<Record<string, string>>): Catalogue {
  const merged: Record<string, string> = { ...catalogue };
  for (const key of Object.keys(CONNECTION_STRINGS) as ConnectionStringKey[]) {
    const value = fromHost[key];
    if (typeof value === 'string' && value !== '') merged[key] = value;
  }
  return merged as Catalogue;
}

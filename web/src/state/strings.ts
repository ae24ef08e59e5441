import { CONNECTION_STRINGS, type ConnectionStringKey } from '@webbridge/client-sdk';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/**
 * The connection page's strings, in English, used until /api/locale answers and for any key
 * the host does not translate. They come from the contract, like the host's.
 */
export const DEFAULT_STRINGS = CONNECTION_STRINGS;

/** A key of the page's strings. */
export type StringKey = ConnectionStringKey;
/** The page's strings. */
export type Strings = { readonly [K in StringKey]: string };

/** Merges the host's strings over the defaults, ignoring keys the page does not know. */
export function mergeStrings(fromHost: Readonly<Record<string, string>>): Strings {
  const merged: Record<StringKey, string> = { ...DEFAULT_STRINGS };
  for (const key of Object.keys(DEFAULT_STRINGS) as StringKey[]) {
    const value = fromHost[key];
    if (typeof value === 'string' && value !== '') merged[key] = value;
  }
  return merged;
}

/** The strings in use, provided by the app. */
export const StringsContext = createContext<Strings>(DEFAULT_STRINGS);

/** The strings in use. */
export function useStrings(): Strings {
  return useContext(StringsContext);
}

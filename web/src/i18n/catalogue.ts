import type { en } from './catalogues/en';

/** A key of the page's strings; the English catalogue defines the set. */
export type MessageKey = keyof typeof en;

/**
 * A complete translation of the page: every key of the English catalogue, no other. Each
 * language's file is typed with it, so a missing or unknown key is a type error.
 */
export type Catalogue = { readonly [K in MessageKey]: string };

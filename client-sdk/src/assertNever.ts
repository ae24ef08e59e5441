/**
 * Ends an exhaustive `switch` over a union: the call only compiles when every member has been
 * handled, and it throws if an unexpected value arrives at run time anyway (a newer peer).
 */
export function assertNever(value: never, what = 'value'): never {
  throw new TypeError(`Unexpected ${what}: ${JSON.stringify(value)}`);
}

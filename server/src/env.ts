import type { AccessLevel } from '@webbridge/contract';

/** What the bridge's middleware hands to its routes through the Hono context. */
export interface BridgeEnv {
  Variables: {
    /** The access code the request presented (set by the auth guard; never logged). */
    accessCode: string;
    /** What that code allows (set by the auth guard). */
    access: AccessLevel;
    /** The paired device whose credential the request presented (set by the auth guard). */
    device: { readonly id: string; readonly name: string };
    /** Set by a route whose response already carries the API headers (routes/respond.ts). */
    apiHeaders: boolean;
  };
}

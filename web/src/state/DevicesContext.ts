import type { DevicesResponse } from '@webbridge/client-sdk';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/** The paired devices as the page may show them, with what it connected with already bound. */
export interface DevicesAccess {
  /** Every paired device and which one this page is (`current`, null when it used a code). */
  list(): Promise<DevicesResponse>;
  /** Forgets a device; forgetting this page's own device disconnects it. */
  forget(deviceId: string): Promise<void>;
}

/** Provided by the app while it is connected; null before. */
export const DevicesContext = createContext<DevicesAccess | null>(null);

/** The paired devices of the connected host (see {@link DevicesContext}). */
export function useDevices(): DevicesAccess | null {
  return useContext(DevicesContext);
}

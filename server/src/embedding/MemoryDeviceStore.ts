import { randomBytes } from 'node:crypto';
import type { DeviceStore, StoredDevice } from '../devices/DeviceStore';

/**
 * Paired devices kept in memory, for a host without a database: a browser paired with it stays
 * paired while the process runs and must pair again after a restart. The bridge's default.
 */
export class MemoryDeviceStore implements DeviceStore {
  private readonly devices = new Map<string, StoredDevice>();
  private binding: string | undefined;
  /** Lives as long as the binding it keys: this object. */
  private readonly bindingKey = randomBytes(32);

  load(): StoredDevice[] {
    return [...this.devices.values()];
  }

  insert(device: StoredDevice): void {
    this.devices.set(device.id, device);
  }

  touch(id: string, lastSeen: number): void {
    const device = this.devices.get(id);
    if (device) this.devices.set(id, { ...device, lastSeen });
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) this.devices.delete(id);
  }

  codeBinding(): string | undefined {
    return this.binding;
  }

  setCodeBinding(binding: string): void {
    this.binding = binding;
  }

  codeBindingKey(): Uint8Array {
    return this.bindingKey;
  }
}

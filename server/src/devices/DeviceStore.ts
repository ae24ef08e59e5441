import type { AccessLevel } from '@webbridge/contract';

/** A paired device as a host keeps it: its credential only as a hash. */
export interface StoredDevice {
  readonly id: string;
  readonly name: string;
  readonly role: AccessLevel;
  /** SHA-256 of the credential's secret part, hex. The credential itself is never kept. */
  readonly secretHash: string;
  /** When it was paired (epoch milliseconds). */
  readonly firstSeen: number;
  /** When it last presented its credential (epoch milliseconds, kept to the minute). */
  readonly lastSeen: number;
}

/**
 * Where a host keeps its paired devices: the reference host in its SQLite file
 * (host/src/db/DeviceTable.ts), an embedding without a database in memory
 * (`MemoryDeviceStore`, the default). The bridge reads it once when it is built and then writes
 * every change through it; it holds no other state of the host's.
 */
export interface DeviceStore {
  /** Every device kept, in pairing order. */
  load(): StoredDevice[];
  /** Keeps a newly paired device. */
  insert(device: StoredDevice): void;
  /** Records when a device was last seen. */
  touch(id: string, lastSeen: number): void;
  /** Forgets these devices (unknown ids are ignored). */
  remove(ids: readonly string[]): void;
  /**
   * What the kept devices were paired under (keyed digests of the access and view codes, written
   * by the bridge), or undefined when nothing was kept yet. A host started with another code then
   * forgets the devices the old one paired: an old code is a wrong code, whether it was rotated
   * at run time or changed while the host was down.
   */
  codeBinding(): string | undefined;
  /** Keeps what {@link DeviceStore.codeBinding} returns. */
  setCodeBinding(binding: string): void;
  /**
   * The key the binding's digests are made with (HMAC-SHA-256): random, at least 32 bytes, the
   * same for as long as the binding is kept, and kept **apart** from the binding (the reference
   * host: a 0600 file beside its database), so that a copy of the store alone cannot confirm a
   * guessed code. A new key makes the kept binding unreadable: the devices are then forgotten.
   */
  codeBindingKey(): Uint8Array;
}

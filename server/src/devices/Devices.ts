import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { type AccessLevel, type Device, MAX_DEVICES, ProtocolError } from '@webbridge/contract';
import type { DeviceStore, StoredDevice } from './DeviceStore';
import { deviceNameKey, isReservedDeviceName } from './deviceNames';

/** How often a device's last-seen time is written through: at most once a minute per device. */
const SEEN_RESOLUTION_MS = 60_000;

/** The device a credential belongs to, as the guards hand it on. */
export interface VerifiedDevice {
  readonly id: string;
  readonly name: string;
  readonly role: AccessLevel;
}

/** A paired device as the host itself sees it: always with when it was last seen. */
export type ListedDevice = Omit<Device, 'lastSeen'> & { readonly lastSeen: number };

/** Told of every device that was forgotten (by the console, a page, or a rotation). */
export type ForgetListener = (device: Device) => void;

function digestHex(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** Compared when the id names no device, so an unknown id takes as long as a wrong secret. */
const DUMMY_HASH = digestHex('no such device');

/** How the binding's digests are made now: HMAC-SHA-256 with the store's key. */
const KEYED = 'hmac-sha256';

/** What a store's devices were paired under: digests of the access and view codes. */
interface CodeBinding {
  readonly control: string;
  readonly view: string | null;
  /** {@link KEYED}; absent in what hosts before the key kept (plain SHA-256). */
  readonly digest?: string;
}

/** A code's digest for the binding, apart from every other use of SHA-256 here. */
function bindingDigest(key: Uint8Array | undefined, code: string): string {
  const text = `webbridge device binding\0${code}`;
  // Unkeyed only to read a binding older hosts kept: such a digest lets a copy of the database
  // test guesses of the code offline, so it is replaced by a keyed one at once.
  return key === undefined ? digestHex(text) : createHmac('sha256', key).update(text).digest('hex');
}

function parseBinding(kept: string | undefined): CodeBinding | undefined {
  if (kept === undefined) return undefined;
  try {
    const value = JSON.parse(kept) as Partial<CodeBinding> | null;
    if (typeof value?.control === 'string') {
      const binding = { control: value.control, view: value.view ?? null };
      return typeof value.digest === 'string' ? { ...binding, digest: value.digest } : binding;
    }
  } catch {
    // Unreadable: treated as another code, below.
  }
  // Something is kept but says nothing readable: forget rather than trust.
  return { control: '', view: null, digest: KEYED };
}

function publicView(device: StoredDevice): Device {
  const { secretHash: _hidden, ...rest } = device;
  return rest;
}

/**
 * The paired devices of a bridge: pairing makes a credential `<id>.<secret>` (a 72-bit id to
 * find the device, a 256-bit secret to prove it) of which the store keeps only the secret's
 * SHA-256. Verifying hashes what was presented and compares it with the kept hash in constant
 * time (a compare also runs when the id is unknown). Listed and forgotten by id; whoever needs
 * to react to a forgotten device (close its streams, drop its push subscription) listens with
 * {@link onForget}.
 */
export class Devices {
  private readonly byId = new Map<string, StoredDevice>();
  /** When each device was last seen (kept apart, so a request allocates nothing). */
  private readonly seenAt = new Map<string, number>();
  /** When each device's last-seen time was last written through to the store. */
  private readonly written = new Map<string, number>();
  private readonly listeners = new Set<ForgetListener>();

  constructor(
    private readonly store: DeviceStore,
    private readonly now: () => number = Date.now,
  ) {
    for (const device of store.load()) {
      this.byId.set(device.id, device);
      this.seenAt.set(device.id, device.lastSeen);
      this.written.set(device.id, device.lastSeen);
    }
  }

  /**
   * Throws the 422 that says why a device called `name` cannot be paired now: the host keeps
   * {@link MAX_DEVICES} already (`too_many_devices`), or the name is another device's or the
   * host's own, compared without case, spacing or invisible characters (`device_name_taken`:
   * refused rather than made "Pixel 7 (2)", so the person chooses a name they will recognise
   * in "Allowed on …" and in the list of devices they may forget).
   */
  admit(name: string): void {
    if (this.byId.size >= MAX_DEVICES) {
      throw new ProtocolError(
        'too_many_devices',
        `The host keeps at most ${MAX_DEVICES} paired devices. Forget one on the host or another device first.`,
      );
    }
    if (isReservedDeviceName(name)) {
      throw new ProtocolError(
        'device_name_taken',
        `“${name.trim()}” names the host itself. Choose another name.`,
      );
    }
    const key = deviceNameKey(name);
    for (const device of this.byId.values()) {
      if (deviceNameKey(device.name) === key) {
        throw new ProtocolError(
          'device_name_taken',
          `Another device is called “${device.name}”. Choose another name.`,
        );
      }
    }
  }

  /**
   * Pairs a new device: its credential (shown once, kept nowhere) and what the list shows.
   * Refused as {@link admit} says.
   */
  pair(name: string, role: AccessLevel): { credential: string; device: Device } {
    this.admit(name);
    const id = randomBytes(9).toString('base64url');
    const secret = randomBytes(32).toString('base64url');
    const time = this.now();
    const stored: StoredDevice = {
      id,
      name,
      role,
      secretHash: digestHex(secret),
      firstSeen: time,
      lastSeen: time,
    };
    this.store.insert(stored);
    this.byId.set(id, stored);
    this.seenAt.set(id, time);
    this.written.set(id, time);
    return { credential: `${id}.${secret}`, device: publicView(stored) };
  }

  /**
   * The device a presented credential belongs to, or undefined. Records that the device was
   * seen (written through at most once a minute, so a request does not cost a disk write).
   */
  verify(presented: string): VerifiedDevice | undefined {
    const dot = presented.indexOf('.');
    const id = dot > 0 ? presented.slice(0, dot) : '';
    const device = this.byId.get(id);
    const candidate = Buffer.from(digestHex(presented.slice(dot + 1)), 'hex');
    const expected = Buffer.from(device?.secretHash ?? DUMMY_HASH, 'hex');
    if (!timingSafeEqual(candidate, expected) || device === undefined) return undefined;
    this.seen(device);
    return { id: device.id, name: device.name, role: device.role };
  }

  /** Every paired device, in pairing order, each with when it was last seen. */
  list(): ListedDevice[] {
    return [...this.byId.values()].map((device) => ({
      ...publicView(device),
      lastSeen: this.seenAt.get(device.id) ?? device.lastSeen,
    }));
  }

  /**
   * The list as `asker` may see it: a controlling device or the access code sees everything; a
   * watching device (`current` its own id) or the view code sees no other device's last-seen
   * time, which would tell it who uses the host when.
   */
  listFor(access: AccessLevel, current: string | null): Device[] {
    const all = this.list();
    if (access === 'control') return all;
    return all.map(({ lastSeen, ...rest }) => (rest.id === current ? { ...rest, lastSeen } : rest));
  }

  /** Forgets one device; undefined when there is none of that id. */
  forget(id: string): Device | undefined {
    return this.forgetWhere((device) => device.id === id)[0];
  }

  /** Forgets every device `predicate` selects (a rotation: all, or the view devices). */
  forgetWhere(predicate: (device: Device) => boolean): Device[] {
    const gone = this.list().filter(predicate);
    if (gone.length === 0) return gone;
    this.store.remove(gone.map((device) => device.id));
    for (const device of gone) {
      this.byId.delete(device.id);
      this.seenAt.delete(device.id);
      this.written.delete(device.id);
    }
    for (const device of gone) for (const listener of this.listeners) listener(device);
    return gone;
  }

  /**
   * Binds the kept devices to the codes they were paired under. When the store says they were
   * paired under another access code (the host was started with a new one: a new code file, a
   * new environment), every device is forgotten; under another view code, the view devices.
   * Then the store keeps the new binding. A store that kept none (made before bindings) keeps
   * its devices: nothing says what paired them. The binding holds digests keyed with the
   * store's {@link DeviceStore.codeBindingKey}, never the codes, so a copy of the store without
   * the key cannot confirm a guessed code.
   */
  bindCodes(control: string, view: string | undefined): void {
    const kept = parseBinding(this.store.codeBinding());
    const key = this.store.codeBindingKey();
    const bind = (digestKey: Uint8Array | undefined): CodeBinding => ({
      control: bindingDigest(digestKey, control),
      view: view === undefined ? null : bindingDigest(digestKey, view),
    });
    // Compared as it was made: an older host's plain digests once, so nobody is logged out.
    const current = bind(kept === undefined || kept.digest !== undefined ? key : undefined);
    if (kept !== undefined && kept.control !== current.control) this.forgetWhere(() => true);
    else if (kept !== undefined && kept.view !== current.view)
      this.forgetWhere((device) => device.role === 'view');
    this.store.setCodeBinding(JSON.stringify({ ...bind(key), digest: KEYED }));
  }

  /**
   * Calls `listener` with every device forgotten from now on, after its credential stopped
   * working. Returns the function that stops listening.
   */
  onForget(listener: ForgetListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private seen(device: StoredDevice): void {
    const time = this.now();
    this.seenAt.set(device.id, time);
    if (time - (this.written.get(device.id) ?? 0) < SEEN_RESOLUTION_MS) return;
    this.written.set(device.id, time);
    this.store.touch(device.id, time);
  }
}

import { describe, expect, it } from 'vitest';
import { MemoryDeviceStore } from '../embedding/MemoryDeviceStore';
import { Devices } from './Devices';

describe('Devices', () => {
  it('verifies a credential and nothing close to it', () => {
    const devices = new Devices(new MemoryDeviceStore());
    const { credential, device } = devices.pair('Phone', 'view');
    expect(devices.verify(credential)).toEqual({ id: device.id, name: 'Phone', role: 'view' });
    const [id, secret = ''] = credential.split('.');
    // One character off (never the secret's own last character: a random secret may end in it).
    const offByOne = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    for (const wrong of [
      `${id}.${offByOne}`,
      `${id}.`,
      `${id}`,
      secret,
      `x${credential}`,
      `other.${secret}`,
      '',
    ]) {
      expect(devices.verify(wrong), wrong).toBeUndefined();
    }
  });

  it('records last seen in memory at once and writes it through at most once a minute', () => {
    let time = 1_000_000;
    const store = new MemoryDeviceStore();
    const devices = new Devices(store, () => time);
    const { credential, device } = devices.pair('Phone', 'control');
    time += 30_000;
    devices.verify(credential);
    expect(devices.list()[0]?.lastSeen).toBe(time);
    expect(store.load()[0]?.lastSeen).toBe(device.firstSeen);
    time += 30_000;
    devices.verify(credential);
    expect(store.load()[0]?.lastSeen).toBe(time);
  });

  it('reloads devices from its store, and tells listeners of each forgotten one', () => {
    const store = new MemoryDeviceStore();
    const first = new Devices(store);
    const phone = first.pair('Phone', 'control');
    const screen = first.pair('Screen', 'view');
    const again = new Devices(store);
    expect(again.verify(phone.credential)?.name).toBe('Phone');
    const told: string[] = [];
    const stop = again.onForget((device) => told.push(device.name));
    expect(again.forgetWhere((device) => device.role === 'view').map((d) => d.name)).toEqual(['Screen']);
    expect(again.verify(screen.credential)).toBeUndefined();
    stop();
    again.forget(phone.device.id);
    expect(told).toEqual(['Screen']);
    expect(store.load()).toEqual([]);
    expect(again.forget('missing')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { projectionDeltaSchema } from './events';
import { projectionSchema, snapshotSchema } from './snapshot';
import { CONFIGURATION_PARTS, DELTA_PARTS, STATE_PARTS } from './stateParts';

const key = (path: readonly string[]) => path.join('.');

/** Every field of the projection schema, one level into a group that is split per field. */
function schemaFields(): string[] {
  const fields: string[] = [];
  for (const [name, schema] of Object.entries(projectionSchema.shape)) {
    const entry = STATE_PARTS[name as keyof typeof STATE_PARTS];
    if (typeof entry === 'object' && 'shape' in schema) {
      for (const inner of Object.keys(schema.shape as object)) fields.push(`${name}.${inner}`);
    } else fields.push(name);
  }
  return fields;
}

describe('the split of the state into configuration and delta', () => {
  it('has an entry for every top-level field of the projection schema, and nothing else', () => {
    expect(Object.keys(STATE_PARTS).sort()).toEqual(Object.keys(projectionSchema.shape).sort());
    // The snapshot is the projection plus its protocol number (which never changes in a run).
    const snapshotOnly = Object.keys(snapshotSchema.shape).filter((k) => !(k in projectionSchema.shape));
    expect(snapshotOnly).toEqual(['protocol']);
  });

  it('puts every field on exactly one side', () => {
    const configuration = CONFIGURATION_PARTS.map((p) => key(p.path));
    const delta = DELTA_PARTS.map((p) => key(p.path));
    expect(configuration.filter((f) => delta.includes(f))).toEqual([]);
    expect([...configuration, ...delta].sort()).toEqual(schemaFields().sort());
  });

  it('sends each delta part in the delta field of its name (messages as cut/put/set/ap/add)', () => {
    const fields = Object.keys(projectionDeltaSchema.shape);
    for (const part of DELTA_PARTS) {
      const name = part.path.at(-1)!;
      if (name === 'messages')
        expect(fields).toEqual(expect.arrayContaining(['cut', 'put', 'set', 'ap', 'add']));
      else expect(fields).toContain(name);
    }
  });

  it('reads each part from a state', () => {
    const state = { conversations: { run: 'the run' }, settings: 'the settings' } as never;
    const read = (path: string) =>
      [...CONFIGURATION_PARTS, ...DELTA_PARTS].find((p) => key(p.path) === path)!;
    expect(read('conversations.run').read(state)).toBe('the run');
    expect(read('settings').read(state)).toBe('the settings');
  });
});

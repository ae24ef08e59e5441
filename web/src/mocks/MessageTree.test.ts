import type { HostMessage } from '@webbridge/contract';
import { aHostMessage } from '@webbridge/contract/testing';
import { describe, expect, it } from 'vitest';
import { MessageTree } from './MessageTree';

const at = (id: string, parentId: string | null, createdAt = 1): HostMessage =>
  aHostMessage({ id, parentId, createdAt, role: parentId === null ? 'user' : 'assistant' });

/** u1 ─ a1 ─ u2 ─ a2, then a sibling a1b of a1 with a child u3. */
function forked(): MessageTree {
  const tree = new MessageTree();
  tree.absorb([at('u1', null), at('a1', 'u1'), at('u2', 'a1'), at('a2', 'u2')]);
  tree.add(at('a1b', 'u1', 2));
  tree.add(at('u3', 'a1b', 2));
  return tree;
}

describe('MessageTree (the reference host’s branch rules)', () => {
  it('adds each new message as its parent’s last child, and replaces a known one in place', () => {
    const tree = forked();
    expect(tree.siblingsOf('a1')).toEqual(['a1', 'a1b']);
    tree.absorb([at('u1', null), { ...at('a1', 'u1'), text: 'changed' }]);
    expect(tree.siblingsOf('a1')).toEqual(['a1', 'a1b']);
    expect(tree.get('a1')?.text).toBe('changed');
  });

  it('gives each message of a path its place among its siblings, keeping the unchanged ones', () => {
    const tree = forked();
    const u1 = tree.get('u1');
    const path = tree.path('u3');
    expect(path.map((m) => [m.id, m.sibling])).toEqual([
      ['u1', { index: 0, count: 1 }],
      ['a1b', { index: 1, count: 2 }],
      ['u3', { index: 0, count: 1 }],
    ]);
    expect(path[0]).toBe(u1);
    expect(tree.path(null)).toEqual([]);
  });

  it('lands a switch on the deepest leaf below, the newest of equally deep ones, never another branch’s', () => {
    const tree = forked();
    expect(tree.newestDeepestLeaf('a1')).toBe('a2');
    expect(tree.newestDeepestLeaf('a1b')).toBe('u3');
    expect(tree.newestDeepestLeaf('u1')).toBe('a2');
    tree.add(at('a2b', 'u2', 0));
    // As deep as a2 but older: a2 stays; one made in the same millisecond wins by order.
    expect(tree.newestDeepestLeaf('u2')).toBe('a2');
    tree.add(at('a2c', 'u2', 1));
    expect(tree.newestDeepestLeaf('u2')).toBe('a2c');
    expect(tree.newestDeepestLeaf('a2')).toBe('a2');
  });
});

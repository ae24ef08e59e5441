import type { HostMessage } from '@webbridge/contract';

/**
 * One conversation's messages as a tree, for the scripted host: every branch, where the
 * in-memory host (`MemoryConversations`) keeps only the one shown. The rules are the reference
 * host's (host/src/controller/ConversationTree.ts): a new message is its parent's last child,
 * a branch switch lands on the deepest leaf below it (the newest when several are as deep),
 * and each message shown carries its position among its siblings.
 */
export class MessageTree {
  private readonly rows = new Map<string, HostMessage>();
  /** Children ids by parent id (`null` = roots), in sibling order. */
  private readonly children = new Map<string | null, string[]>();
  /** Insertion order, which breaks ties between messages created in the same millisecond. */
  private readonly sequence = new Map<string, number>();

  get(id: string): HostMessage | undefined {
    return this.rows.get(id);
  }

  /**
   * Takes in the branch shown, root first: a known message is replaced (its text and status
   * move while it streams), a new one becomes its parent's last child.
   */
  absorb(path: readonly HostMessage[]): void {
    for (const message of path) {
      if (this.rows.has(message.id)) this.rows.set(message.id, message);
      else this.add(message);
    }
  }

  /** Adds a message as the last sibling under its parent. */
  add(message: HostMessage): void {
    this.rows.set(message.id, message);
    this.sequence.set(message.id, this.sequence.size);
    const siblings = this.children.get(message.parentId);
    if (siblings) siblings.push(message.id);
    else this.children.set(message.parentId, [message.id]);
  }

  /** The ids of a message's siblings (itself included), in order. */
  siblingsOf(id: string): readonly string[] {
    const message = this.rows.get(id);
    return message ? (this.children.get(message.parentId) ?? []) : [];
  }

  /**
   * The messages from the root to `leafId`, root first, each with its sibling position (a
   * message whose position did not change is the same object: the bridge diffs by reference).
   */
  path(leafId: string | null): HostMessage[] {
    const path: HostMessage[] = [];
    let message = leafId === null ? undefined : this.rows.get(leafId);
    while (message) {
      path.push(this.positioned(message));
      message = message.parentId === null ? undefined : this.rows.get(message.parentId);
    }
    return path.reverse();
  }

  /**
   * The leaf a branch switch to `id` lands on: the deepest message below it, the newest one
   * when several are equally deep. Never another branch's leaf.
   */
  newestDeepestLeaf(id: string): string {
    let best = { id, depth: 0 };
    const stack = [{ id, depth: 0 }];
    for (let node = stack.pop(); node; node = stack.pop()) {
      const kids = this.children.get(node.id) ?? [];
      if (kids.length === 0 && this.isBetterLeaf(node, best)) best = node;
      for (const kid of kids) stack.push({ id: kid, depth: node.depth + 1 });
    }
    return best.id;
  }

  /** The message with its place among its siblings, as the reference host's projection shows it. */
  private positioned(message: HostMessage): HostMessage {
    const siblings = this.children.get(message.parentId) ?? [];
    const index = Math.max(0, siblings.indexOf(message.id));
    const count = Math.max(1, siblings.length);
    if (message.sibling.index === index && message.sibling.count === count) return message;
    const moved = { ...message, sibling: { index, count } };
    this.rows.set(message.id, moved);
    return moved;
  }

  private isBetterLeaf(a: { id: string; depth: number }, b: { id: string; depth: number }): boolean {
    if (a.depth !== b.depth) return a.depth > b.depth;
    const createdA = this.rows.get(a.id)?.createdAt ?? 0;
    const createdB = this.rows.get(b.id)?.createdAt ?? 0;
    if (createdA !== createdB) return createdA > createdB;
    return (this.sequence.get(a.id) ?? 0) > (this.sequence.get(b.id) ?? 0);
  }
}

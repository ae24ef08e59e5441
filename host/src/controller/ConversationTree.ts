import type { HostAttachment } from '@webbridge/contract';
import type { StoredAttachment } from '../db/AttachmentTable';
import { applyChange, type MessageChange, type StoredMessage } from '../db/StoredMessage';

/**
 * One conversation's messages held in memory as a tree: parents, ordered children and the
 * attachments of each message. Branch logic (path to a leaf, sibling positions, which leaf a
 * branch switch lands on) lives here, away from SQL.
 */
export class ConversationTree {
  readonly conversationId: string;
  private readonly rows = new Map<string, StoredMessage>();
  /** Children ids by parent id (`null` = roots), in sibling order. */
  private readonly children = new Map<string | null, string[]>();
  private readonly attachmentsByMessage = new Map<string, HostAttachment[]>();
  /** Insertion order, which breaks ties between messages created in the same millisecond. */
  private readonly sequence = new Map<string, number>();
  private nextSequence = 0;

  constructor(
    conversationId: string,
    rows: readonly StoredMessage[],
    attachments: readonly StoredAttachment[],
  ) {
    this.conversationId = conversationId;
    // Messages arrive in sibling order, so pushing keeps each child list ordered.
    for (const row of rows) this.add(row);
    for (const attachment of attachments) {
      if (attachment.messageId !== null) this.attach(attachment.messageId, [toHostAttachment(attachment)]);
    }
  }

  get(id: string): StoredMessage | undefined {
    return this.rows.get(id);
  }

  get size(): number {
    return this.rows.size;
  }

  /** Adds a message as the last sibling under its parent. */
  add(row: StoredMessage): void {
    this.rows.set(row.id, row);
    this.sequence.set(row.id, this.nextSequence++);
    const siblings = this.children.get(row.parentId);
    if (siblings) siblings.push(row.id);
    else this.children.set(row.parentId, [row.id]);
  }

  /** Applies a change to a message and returns the new message. */
  change(id: string, change: MessageChange): StoredMessage {
    const row = this.rows.get(id);
    if (!row) throw new Error(`Message ${id} is not in this conversation.`);
    const next = applyChange(row, change);
    this.rows.set(id, next);
    return next;
  }

  /** Appends text to a message and returns the new row. */
  appendText(id: string, text: string): StoredMessage | undefined {
    const row = this.rows.get(id);
    if (!row) return undefined;
    const next: StoredMessage = { ...row, text: row.text + text };
    this.rows.set(id, next);
    return next;
  }

  attach(messageId: string, attachments: readonly HostAttachment[]): void {
    if (attachments.length === 0) return;
    this.attachmentsByMessage.set(messageId, [...this.attachmentsOf(messageId), ...attachments]);
  }

  attachmentsOf(messageId: string): readonly HostAttachment[] {
    return this.attachmentsByMessage.get(messageId) ?? [];
  }

  /** The ids of a message's siblings (itself included), in order. */
  siblingsOf(id: string): readonly string[] {
    const row = this.rows.get(id);
    return row ? (this.children.get(row.parentId) ?? []) : [];
  }

  childrenOf(id: string | null): readonly string[] {
    return this.children.get(id) ?? [];
  }

  /** The messages from the root to `leafId`, root first. Empty for a null leaf. */
  path(leafId: string | null): StoredMessage[] {
    const path: StoredMessage[] = [];
    let row = leafId === null ? undefined : this.rows.get(leafId);
    while (row) {
      path.push(row);
      row = row.parentId === null ? undefined : this.rows.get(row.parentId);
    }
    return path.reverse();
  }

  /**
   * The leaf a branch switch to `id` lands on: the deepest message below it, the newest one
   * when several are equally deep. Never another branch's leaf.
   */
  newestDeepestLeaf(id: string): string {
    let best = { id, depth: 0 };
    const stack: { id: string; depth: number }[] = [{ id, depth: 0 }];
    while (stack.length > 0) {
      const node = stack.pop()!;
      const kids = this.children.get(node.id) ?? [];
      if (kids.length === 0 && this.isBetterLeaf(node, best)) best = node;
      for (const kid of kids) stack.push({ id: kid, depth: node.depth + 1 });
    }
    return best.id;
  }

  /** The leaf a fresh view of the conversation shows when none is recorded. */
  defaultLeaf(): string | null {
    const roots = this.children.get(null) ?? [];
    const last = roots[roots.length - 1];
    return last === undefined ? null : this.newestDeepestLeaf(last);
  }

  private isBetterLeaf(a: { id: string; depth: number }, b: { id: string; depth: number }): boolean {
    if (a.depth !== b.depth) return a.depth > b.depth;
    const rowA = this.rows.get(a.id)!;
    const rowB = this.rows.get(b.id)!;
    if (rowA.createdAt !== rowB.createdAt) return rowA.createdAt > rowB.createdAt;
    return (this.sequence.get(a.id) ?? 0) > (this.sequence.get(b.id) ?? 0);
  }
}

/** The projection's view of a stored attachment. */
export function toHostAttachment(row: StoredAttachment): HostAttachment {
  return { id: row.id, name: row.name, type: row.type, size: row.size };
}

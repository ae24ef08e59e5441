import type {
  Attachment,
  DeltaEvent,
  HostAttachment,
  HostMessage,
  Message,
  Projection,
  ProjectionDelta,
  Snapshot,
} from '@webbridge/contract';
import { PROTOCOL_VERSION } from '@webbridge/contract';
import { CODE_HOLDER, type MediaHolder, type MediaRegistry } from './MediaRegistry';

/** The changed fields of one message in the server's diff. */
type HostPatch = NonNullable<ProjectionDelta['set']>[number][1];
/** The same, on the wire. */
type WirePatch = NonNullable<DeltaEvent['set']>[number][1];

/**
 * Turns host data into wire data: every attachment gets a currently valid media id of the
 * mapper's holder (a device, or the codes). Messages without attachments pass through
 * untouched (no copy), so the cost follows the attachments.
 */
export class WireMapper {
  /** Media ids this mapper put in what it mapped: none means the result fits every holder. */
  private mapped = 0;

  constructor(
    private readonly media: MediaRegistry,
    private readonly holder: MediaHolder = CODE_HOLDER,
  ) {}

  /**
   * A fresh mapper for `holder`, counting the ids it hands out: what it maps with no id in it
   * (a streamed word, most deltas) can be shared with every other holder's streams.
   */
  forHolder(holder: MediaHolder): WireMapper {
    return new WireMapper(this.media, holder);
  }

  /** Whether anything mapped so far carried a media id (so belongs to this holder only). */
  get carriedMedia(): boolean {
    return this.mapped > 0;
  }

  /**
   * Changes every quarter of a media id's lifetime. Built frames that carry media ids may be
   * shared only within one epoch, so an id handed out from a cached frame always has at least
   * a quarter of its life left.
   */
  mediaEpoch(now = Date.now()): number {
    return Math.floor(now / Math.max(1, this.media.lifetimeMs / 4));
  }

  /**
   * Names the media ids a kept snapshot may reuse: a sixteenth of an id's lifetime and how often
   * every id was revoked. An id is reused while more than half its life is left, so one handed
   * out from a kept snapshot still has more than 7/16 of it.
   */
  mediaKey(now = Date.now()): string {
    return `${this.media.generation}:${Math.floor(now / Math.max(1, this.media.lifetimeMs / 16))}`;
  }

  attachment(attachment: HostAttachment): Attachment {
    this.mapped++;
    return { ...attachment, media: this.media.refFor(attachment.id, this.holder) };
  }

  message(message: HostMessage): Message {
    if (message.attachments.length === 0) return message as Message;
    return { ...message, attachments: message.attachments.map((a) => this.attachment(a)) };
  }

  /** A message patch: attachments, when they changed, get media ids like everywhere else. */
  patch(fields: HostPatch): WirePatch {
    const { attachments, ...rest } = fields;
    return attachments ? { ...rest, attachments: attachments.map((a) => this.attachment(a)) } : rest;
  }

  snapshot(state: Projection): Snapshot {
    return {
      protocol: PROTOCOL_VERSION,
      ...state,
      conversations: {
        ...state.conversations,
        messages: state.conversations.messages.map((m) => this.message(m)),
        pending: state.conversations.pending.map((a) => this.attachment(a)),
      },
    };
  }

  /** The wire form of a delta's message and attachment fields. */
  delta(delta: ProjectionDelta): Omit<DeltaEvent, 'kind' | 'seq' | 'base'> {
    const { put, set, add, pending, ...rest } = delta;
    return {
      ...rest,
      ...(put ? { put: put.map((m) => this.message(m)) } : {}),
      ...(set
        ? {
            set: set.map(([id, fields]): [string, WirePatch] => [id, this.patch(fields)]),
          }
        : {}),
      ...(add ? { add: add.map((m) => this.message(m)) } : {}),
      ...(pending ? { pending: pending.map((a) => this.attachment(a)) } : {}),
    };
  }
}

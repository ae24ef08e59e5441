/**
 * A request to bring one message into view (find in the conversation going to a match).
 * `seq` is new for each request, so the same message can be revealed again after the person
 * scrolled away from it.
 */
export interface RevealRequest {
  readonly messageId: string;
  readonly seq: number;
}

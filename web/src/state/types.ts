/**
 * The state types the page renders: the contract's own types, re-exported by the SDK (the only
 * package the page imports), so nothing here mirrors a schema by hand.
 */
export type {
  Approval,
  ApprovalDecision,
  Attachment,
  ConversationSummary,
  MediaRef,
  Message,
  Settings,
  Snapshot,
} from '@webbridge/client-sdk';

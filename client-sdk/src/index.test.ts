import type * as Contract from '@webbridge/contract';
import { describe, expectTypeOf, it } from 'vitest';
import type * as Sdk from './index';

type Wire = Contract.Snapshot;

describe('the contract types the SDK re-exports for a UI', () => {
  it('are the contract types themselves', () => {
    expectTypeOf<Sdk.Snapshot>().toEqualTypeOf<Contract.Snapshot>();
    expectTypeOf<Sdk.Message>().toEqualTypeOf<Contract.Message>();
    expectTypeOf<Sdk.Attachment>().toEqualTypeOf<Contract.Attachment>();
    expectTypeOf<Sdk.MediaRef>().toEqualTypeOf<Contract.MediaRef>();
    expectTypeOf<Sdk.Approval>().toEqualTypeOf<Contract.Approval>();
    expectTypeOf<Sdk.Settings>().toEqualTypeOf<Contract.Settings>();
    expectTypeOf<Sdk.RunStatus>().toEqualTypeOf<Contract.RunStatus>();
    expectTypeOf<Sdk.HostAttachment>().toEqualTypeOf<Contract.HostAttachment>();
    expectTypeOf<Sdk.Locale>().toEqualTypeOf<Contract.Locale>();
    expectTypeOf<Sdk.Problem>().toEqualTypeOf<Contract.Problem>();
    expectTypeOf<Sdk.ErrorCode>().toEqualTypeOf<Contract.ErrorCode>();
    expectTypeOf<Sdk.SessionIdentity>().toEqualTypeOf<Contract.SessionIdentity>();
    expectTypeOf<Sdk.Action>().toEqualTypeOf<Contract.Action>();
  });

  it('infer the parts the contract exports only as schemas', () => {
    expectTypeOf<Sdk.ConversationSummary>().toEqualTypeOf<Wire['conversations']['list'][number]>();
    expectTypeOf<Sdk.Project>().toEqualTypeOf<Wire['projects']['list'][number]>();
    expectTypeOf<Sdk.Workspace>().toEqualTypeOf<Wire['projects']['roots'][number]>();
    expectTypeOf<Sdk.Model>().toEqualTypeOf<Wire['models']['list'][number]>();
    expectTypeOf<Sdk.Tool>().toEqualTypeOf<Wire['tools']['list'][number]>();
    expectTypeOf<Sdk.ToolCall>().toEqualTypeOf<NonNullable<Contract.Message['tool']>>();
    expectTypeOf<Sdk.MessageRole>().toEqualTypeOf<Contract.Message['role']>();
    expectTypeOf<Sdk.MessageStatus>().toEqualTypeOf<Contract.Message['status']>();
  });

  it('match what the store holds and what errors carry', () => {
    expectTypeOf<NonNullable<Sdk.StoreState['snapshot']>>().toEqualTypeOf<Sdk.Snapshot>();
    expectTypeOf<Sdk.BridgeClientError['retryAfterSeconds']>().toEqualTypeOf<number | null>();
    expectTypeOf<Sdk.UploadTransport>().toEqualTypeOf<'auto' | 'fetch'>();
    expectTypeOf<Sdk.StoreState['lastCurrentAt']>().toEqualTypeOf<number | null>();
    expectTypeOf<Sdk.PendingAction['action']>().toEqualTypeOf<Sdk.Action>();
    expectTypeOf<Sdk.EventConnection['check']>().toEqualTypeOf<() => void>();
  });
});

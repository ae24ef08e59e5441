import type { HostMessage, Projection } from '@webbridge/contract';
import fc from 'fast-check';

type Status = HostMessage['status'];
const statuses: readonly Status[] = ['complete', 'streaming', 'stopped', 'error', 'waiting'];

/** A change of the host's projection, or an event on one subscriber's connection. */
export type ProjectionCommand =
  | { readonly t: 'send'; readonly text: string; readonly attach: boolean }
  | { readonly t: 'stream'; readonly text: string }
  | { readonly t: 'status'; readonly back: number; readonly status: Status; readonly siblings: boolean }
  | { readonly t: 'finish' }
  | { readonly t: 'edit'; readonly back: number; readonly text: string; readonly bump: boolean }
  | { readonly t: 'branch'; readonly back: number; readonly count: number; readonly bump: boolean }
  | { readonly t: 'regenerate' }
  | { readonly t: 'switch'; readonly fresh: boolean; readonly count: number }
  | { readonly t: 'approvalAdd' }
  | { readonly t: 'approvalRemove' }
  | { readonly t: 'run'; readonly state: Projection['conversations']['run']['state'] }
  | { readonly t: 'pendingAdd' }
  | { readonly t: 'pendingRemove' }
  | { readonly t: 'settings'; readonly theme: Projection['settings']['theme'] }
  | { readonly t: 'model' }
  | { readonly t: 'restart' }
  | { readonly t: 'touch' }
  | { readonly t: 'rewrap' }
  | { readonly t: 'deliver'; readonly sub: number }
  | { readonly t: 'disconnect'; readonly sub: number };

// ASCII for short appends (one code unit), any code point for surrogate pairs and offsets.
const text = fc.oneof(fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 6 }));
const back = fc.nat({ max: 6 });
const sub = fc.nat({ max: 7 });

/** Any {@link ProjectionCommand}, weighted towards sends, streamed text and deliveries. */
export const projectionCommand: fc.Arbitrary<ProjectionCommand> = fc.oneof(
  { arbitrary: fc.record({ t: fc.constant('send' as const), text, attach: fc.boolean() }), weight: 3 },
  { arbitrary: fc.record({ t: fc.constant('stream' as const), text }), weight: 8 },
  fc.record({
    t: fc.constant('status' as const),
    back,
    status: fc.constantFrom(...statuses),
    siblings: fc.boolean(),
  }),
  fc.record({ t: fc.constant('finish' as const) }),
  fc.record({ t: fc.constant('edit' as const), back, text, bump: fc.boolean() }),
  fc.record({ t: fc.constant('branch' as const), back, count: fc.nat({ max: 3 }), bump: fc.boolean() }),
  fc.record({ t: fc.constant('regenerate' as const) }),
  fc.record({ t: fc.constant('switch' as const), fresh: fc.boolean(), count: fc.nat({ max: 3 }) }),
  fc.record({ t: fc.constant('approvalAdd' as const) }),
  fc.record({ t: fc.constant('approvalRemove' as const) }),
  fc.record({
    t: fc.constant('run' as const),
    state: fc.constantFrom('idle', 'streaming', 'waiting_approval'),
  }),
  fc.record({ t: fc.constant('pendingAdd' as const) }),
  fc.record({ t: fc.constant('pendingRemove' as const) }),
  fc.record({ t: fc.constant('settings' as const), theme: fc.constantFrom('system', 'light', 'dark') }),
  fc.record({ t: fc.constant('model' as const) }),
  fc.record({ t: fc.constant('restart' as const) }),
  fc.record({ t: fc.constant('touch' as const) }),
  fc.record({ t: fc.constant('rewrap' as const) }),
  { arbitrary: fc.record({ t: fc.constant('deliver' as const), sub }), weight: 2 },
  fc.record({ t: fc.constant('disconnect' as const), sub }),
);

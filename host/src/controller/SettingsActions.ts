import type { ActionOf, ActionResultOf } from '@webbridge/contract';
import type { HostStore } from '../db/HostStore';
import type { SettingsTable } from '../db/SettingsTable';
import type { ControllerSteps } from './ControllerSteps';
import { mergeSettings } from './settings';

/** What {@link SettingsActions} works with. */
export interface SettingsActionsDeps {
  /** Where settings are persisted (in one transaction). */
  readonly store: Pick<HostStore, 'transaction'> & { readonly settings: Pick<SettingsTable, 'set'> };
  readonly steps: Pick<ControllerSteps, 'settings' | 'replaceSettings' | 'refresh'>;
}

/** Changes to the host's settings, persisted (where the contract says so) and published. */
export class SettingsActions {
  private readonly store: SettingsActionsDeps['store'];
  private readonly steps: SettingsActionsDeps['steps'];

  constructor(deps: SettingsActionsDeps) {
    this.store = deps.store;
    this.steps = deps.steps;
  }

  /** Merges a partial settings update. */
  update(update: ActionOf<'updateSettings'>['settings']): ActionResultOf<'updateSettings'> {
    const { steps } = this;
    steps.replaceSettings(mergeSettings(this.store, steps.settings, update));
    steps.refresh();
    return { settings: steps.settings };
  }
}

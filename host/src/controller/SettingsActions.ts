import type { ActionOf, ActionResultOf } from '@webbridge/contract';
import type { ControllerCore } from './ControllerCore';
import { mergeSettings } from './settings';

/** Changes to the host's settings, persisted (where the contract says so) and published. */
export class SettingsActions {
  private readonly core: ControllerCore;

  constructor(core: ControllerCore) {
    this.core = core;
  }

  /** Merges a partial settings update. */
  update(update: ActionOf<'updateSettings'>['settings']): ActionResultOf<'updateSettings'> {
    const { core } = this;
    core.settings = mergeSettings(core.store, core.settings, update);
    core.refresh();
    return { settings: core.settings };
  }
}

import type { StoreState } from '@webbridge/client-sdk';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import type { AgentSession } from '../state/agentChromeTypes';
import { useSession } from '../state/SessionContext';
import { useStoreSelector } from '../state/useStoreSelector';
import { useWatching } from '../state/WatchingContext';

/** What the picker shows: the session's modes and settings (kept by identity while words stream). */
function pickerView({ snapshot }: StoreState) {
  const agentSession = snapshot?.agents?.session;
  if (!agentSession) return null;
  return { modes: agentSession.modes, configOptions: agentSession.configOptions };
}

/**
 * The words on the button: the current mode, else the choice of a setting that is the mode
 * (category `mode`: opencode's build / plan, given as a setting after its model), else the
 * first setting's current choice.
 */
export function pickerLabel(view: Pick<AgentSession, 'modes' | 'configOptions'>): string | null {
  const { modes, configOptions } = view;
  if (modes && modes.list.length > 0)
    return modes.list.find((m) => m.id === modes.current)?.name ?? modes.current;
  const selects = configOptions.filter((o) => o.type === 'select');
  const first = selects.find((o) => o.category === 'mode') ?? selects[0];
  if (!first) return null;
  return first.options?.find((o) => o.value === first.currentValue)?.name ?? String(first.currentValue);
}

/**
 * The agent's mode (e.g. ask / accept edits / plan) and its settings (model, …) in the top bar:
 * a button naming the current mode that opens them, switchable (`agentMode`, `agentOption`).
 * Nothing for the built-in agent: its models stay in the sidebar as before.
 */
export function AgentPicker() {
  const session = useSession();
  const t = useT();
  const watching = useWatching();
  const view = useStoreSelector(session.store, pickerView);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    if (!open) return;
    popover.current?.querySelector<HTMLElement>('select, input')?.focus();
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!popover.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    const onEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onEscape, true);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onEscape, true);
    };
  }, [open]);

  if (view === null) return null;
  const label = pickerLabel(view);
  if (label === null) return null;
  const { modes, configOptions } = view;

  return (
    <div class="agent-picker">
      <button
        ref={button}
        type="button"
        class="agent-picker-button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? 'agent-picker-popover' : undefined}
        aria-label={`${t('agentSettings')}: ${label}`}
        onClick={() => setOpen((now) => !now)}
      >
        <span class="agent-picker-label" dir="auto">
          {label}
        </span>
        <span aria-hidden="true" class="agent-picker-caret">
          ▾
        </span>
      </button>
      {open && (
        <div
          ref={popover}
          id="agent-picker-popover"
          class="agent-picker-popover"
          role="dialog"
          aria-label={t('agentSettings')}
        >
          <fieldset class="controls" disabled={watching}>
            {modes && modes.list.length > 0 && (
              <label class="field">
                <span>{t('agentMode')}</span>
                <select
                  value={modes.current}
                  onChange={(event) => {
                    const modeId = event.currentTarget.value;
                    void session.sensitive((client) => client.sensitive({ action: 'agentMode', modeId }));
                  }}
                >
                  {modes.list.map((mode) => (
                    <option key={mode.id} value={mode.id}>
                      {mode.name}
                    </option>
                  ))}
                </select>
              </label>
            )}
            {configOptions.map((option) =>
              option.type === 'boolean' ? (
                <label key={option.id} class="check">
                  <input
                    type="checkbox"
                    checked={option.currentValue === true}
                    onChange={(event) => {
                      const value = event.currentTarget.checked;
                      void session.sensitive((client) =>
                        client.sensitive({ action: 'agentOption', optionId: option.id, value }),
                      );
                    }}
                  />
                  <span dir="auto">{option.name}</span>
                </label>
              ) : (
                <label key={option.id} class="field">
                  <span dir="auto">{option.name}</span>
                  <select
                    value={String(option.currentValue)}
                    onChange={(event) => {
                      const value = event.currentTarget.value;
                      void session.sensitive((client) =>
                        client.sensitive({ action: 'agentOption', optionId: option.id, value }),
                      );
                    }}
                  >
                    {(option.options ?? []).map((choice) => (
                      <option key={choice.value} value={choice.value}>
                        {choice.name}
                      </option>
                    ))}
                  </select>
                </label>
              ),
            )}
          </fieldset>
        </div>
      )}
    </div>
  );
}

import type { StoreState } from '@webbridge/client-sdk';
import { useT } from '../i18n/I18nContext';
import type { AgentCommand } from '../state/agentChromeTypes';
import { useSession } from '../state/SessionContext';
import { useStoreSelector } from '../state/useStoreSelector';

/** Props of {@link SlashCommands}. */
export interface SlashCommandsProps {
  /** The composer's text. */
  readonly text: string;
  /** Puts `/name ` in the composer. */
  readonly onPick: (name: string) => void;
}

/** The agent's commands (kept by identity while words stream). */
const commandsView = ({ snapshot }: StoreState) => snapshot?.agents?.session?.commands;

/** The commands a text being typed asks for: it is `/` and a word not yet ended, matched by prefix. */
export function matchingCommands(text: string, commands: readonly AgentCommand[]): AgentCommand[] {
  const typed = /^\/(\S*)$/.exec(text);
  if (!typed) return [];
  const prefix = (typed[1] ?? '').toLowerCase();
  return commands.filter((c) => c.name.toLowerCase().startsWith(prefix) && c.name.toLowerCase() !== prefix);
}

/**
 * The agent's slash commands offered above the composer as the person types `/`: a tap puts
 * the command in the composer, ready for its input.
 */
export function SlashCommands({ text, onPick }: SlashCommandsProps) {
  const session = useSession();
  const t = useT();
  const commands = useStoreSelector(session.store, commandsView);
  const shown = commands ? matchingCommands(text, commands) : [];
  if (shown.length === 0) return null;
  // Up and down move between the commands (the composer's down arrow enters the list), Escape
  // goes back to the composer.
  const onKeyDown = (event: KeyboardEvent) => {
    const buttons = [...(event.currentTarget as HTMLElement).querySelectorAll<HTMLButtonElement>('button')];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      buttons[(at + step + buttons.length) % buttons.length]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      document.querySelector<HTMLTextAreaElement>('.composer-input')?.focus();
    }
  };
  return (
    <ul class="slash-commands" aria-label={t('slashCommands')} onKeyDown={onKeyDown}>
      {shown.map((command) => (
        <li key={command.name}>
          <button type="button" class="slash-command" onClick={() => onPick(command.name)}>
            <span class="slash-command-name" dir="ltr">
              /{command.name}
            </span>
            <span class="slash-command-description" dir="auto">
              {command.description}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

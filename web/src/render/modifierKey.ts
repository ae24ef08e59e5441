/** Apple's keyboards: shortcuts take ⌘, and Ctrl keeps its text-editing meaning (Ctrl+F moves the caret). */
const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** How the shortcuts' modifier key is written for this keyboard: ⌘ or Ctrl. */
export const MOD = MAC ? '⌘' : 'Ctrl';

/** Is the shortcuts' modifier (⌘ on Apple's keyboards, Ctrl elsewhere) held in this event? */
export function modifierHeld(event: KeyboardEvent): boolean {
  return MAC ? event.metaKey : event.ctrlKey;
}

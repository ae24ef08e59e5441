/**
 * Marks the page (`<html data-keyboard>`) once a key press shows a physical keyboard is in use,
 * so what only a keyboard needs (the shortcuts' "?" button) shows on a tablet with a keyboard
 * too. A screen keyboard types only into a text field and never holds Ctrl, ⌘ or Alt, so a
 * key pressed outside a field, Tab, Escape, or a key with a modifier means a real keyboard.
 * (A fine pointer that can hover, a desktop, shows it from the start: see agentChrome.css.)
 */
export function noteKeyPress(event: KeyboardEvent): void {
  const root = document.documentElement;
  if (root.dataset.keyboard !== undefined) return;
  const target = event.target;
  const inField =
    target instanceof HTMLElement &&
    (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  const physical =
    !inField ||
    event.ctrlKey ||
    event.metaKey ||
    event.altKey ||
    event.key === 'Tab' ||
    event.key === 'Escape';
  // Android's screen keyboard reports its keys as "Unidentified" (key code 229).
  if (physical && event.key !== 'Unidentified' && event.key !== 'Process') root.dataset.keyboard = '';
}

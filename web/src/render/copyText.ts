/** What {@link copyText} managed: copied, or only selected (the person presses Ctrl+C), or neither. */
export type CopyOutcome = 'copied' | 'selected' | 'failed';

/**
 * Puts `text` on the clipboard. The Clipboard API exists only in a secure context (HTTPS or
 * loopback); over plain HTTP a hidden textarea and `execCommand('copy')` still work in most
 * browsers, and where that is refused too the text in `select` is selected, so the person can
 * copy it with the keyboard.
 *
 * @example
 * ```ts
 * const outcome = await copyText(code, preElement);
 * ```
 */
export async function copyText(text: string, select?: Element | null): Promise<CopyOutcome> {
  if (window.isSecureContext && navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return 'copied';
    } catch {
      // Refused (no permission, document not focused): the fallbacks may still work.
    }
  }
  if (copyWithTextarea(text)) return 'copied';
  if (select && selectContents(select)) return 'selected';
  return 'failed';
}

function copyWithTextarea(text: string): boolean {
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.setAttribute('aria-hidden', 'true');
  // Fixed and transparent: appending it must neither scroll the page nor shift anything.
  area.className = 'copy-buffer';
  document.body.append(area);
  let copied = false;
  try {
    area.focus({ preventScroll: true });
    area.select();
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  } finally {
    area.remove();
    previous?.focus({ preventScroll: true });
  }
  return copied;
}

function selectContents(element: Element): boolean {
  const selection = window.getSelection();
  if (!selection) return false;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
  return true;
}

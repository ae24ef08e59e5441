let region: HTMLElement | null = null;

/**
 * Says `message` to screen readers through one polite live region for the whole page (made
 * on first use), so a control that reports what it did carries no region of its own.
 *
 * @example
 * ```ts
 * announce('Copied');
 * ```
 */
export function announce(message: string): void {
  if (!region?.isConnected) {
    region = document.createElement('div');
    region.className = 'visually-hidden';
    region.setAttribute('aria-live', 'polite');
    region.setAttribute('role', 'status');
    document.body.append(region);
  }
  // Cleared first, so the same words said twice are announced twice.
  region.textContent = '';
  const target = region;
  requestAnimationFrame(() => {
    target.textContent = message;
  });
}

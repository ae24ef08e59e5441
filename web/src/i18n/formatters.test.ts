import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFormatters } from './formatters';

describe('createFormatters', () => {
  afterEach(() => vi.restoreAllMocks());

  it('formats a timestamp once, however often a re-render asks for it', () => {
    const format = createFormatters('en');
    // `format` is a getter (it returns a bound function): each formatting reads it once.
    const intl = vi.spyOn(Intl.DateTimeFormat.prototype as { format: unknown }, 'format', 'get');
    const at = Date.UTC(2026, 10, 26, 12, 30);
    const first = format.dateTime(at);
    for (let i = 0; i < 50; i++) expect(format.dateTime(at)).toBe(first);
    expect(intl).toHaveBeenCalledTimes(1);
    // Another timestamp, and a Date (not remembered), are formatted as before.
    expect(format.dateTime(at + 60_000)).not.toBe(first);
    expect(format.dateTime(new Date(at))).toBe(first);
    expect(intl).toHaveBeenCalledTimes(3);
  });

  it('keeps a bounded number of answers, and still answers right past it', () => {
    const format = createFormatters('de');
    const day = Date.UTC(2026, 10, 23, 12);
    const answers = Array.from({ length: 1200 }, (_, i) => format.date(day + i * 86_400_000));
    expect(format.date(day)).toBe('23.11.2026');
    expect(new Set(answers).size).toBe(1200);
  });
});

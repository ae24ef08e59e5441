import { useEffect, useState } from 'preact/hooks';

/**
 * The current time, re-rendering the component every `everyMs` while `active`; for labels
 * such as "last current 12 seconds ago" that must age on screen without any other change.
 */
export function useNow(active: boolean, everyMs = 1000): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}

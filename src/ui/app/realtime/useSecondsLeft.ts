import { useEffect, useState } from 'react';

/**
 * Whole seconds left until `until` (ISO), ticking every second; 0 once past, null without a time. The ring of a
 * one-at-a-time offer shows it; the server withdraws the offer when it lapses (the ring stops by that event,
 * not by this count).
 */
export function useSecondsLeft(until: string | null | undefined): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!until) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  if (!until) return null;
  return Math.max(0, Math.ceil((Date.parse(until) - now) / 1000));
}

import { useEffect, useState } from 'react';
import { useConsoleSelector } from './store.ts';

/** The server's time as well as the console knows it, ticking every second. */
export function useServerNow(): number {
  const serverAheadMs = useConsoleSelector((state) => state.console.serverAheadMs);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1_000);
    return () => window.clearInterval(timer);
  }, []);
  return now + serverAheadMs;
}

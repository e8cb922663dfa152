import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';

/** The try-anyway demo's lines (three spoken lines: docs/try-anyway.md), in order. */
export const TRY_DEMO_LINES = ['try_demo_line_1', 'try_demo_line_2', 'try_demo_line_3'] as const;

/**
 * `#try` on the live screen: the try-anyway demo says its three lines once,
 * one after the other. It is no real start: the jail's own start (and its
 * greeting) comes from the relay as for any jail.
 */
export function useTryDemo(say: (text: string) => Promise<void>): void {
  const { hash } = useLocation();
  const { t } = useTranslation('jail');
  const played = useRef(false);
  useEffect(() => {
    if (hash !== '#try' || played.current) return;
    played.current = true;
    void (async () => {
      for (const line of TRY_DEMO_LINES) await say(t(line));
    })();
  }, [hash, say, t]);
}

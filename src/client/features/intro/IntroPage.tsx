import { createContext, type MouseEvent, Suspense, use, useMemo, useState } from 'react';
import { AppHeader } from '../../app/AppHeader.tsx';
import { BrowserConnectivity } from '../../app/connectivity.tsx';
import { type LanguageChoice, LanguageChoiceContext } from '../../app/languageChoice.ts';
import { saveLanguage } from '../../app/savedDevice.ts';
import { applyLanguage } from '../../i18n.ts';
import type { Language } from '../../../shared/constants.ts';
import { LinkContext, type LinkTargetProps } from '../../ui/link.tsx';
import { IntroScreen } from './IntroScreen.tsx';

/** Goes on from the first screen: to `path`, in the language chosen there. */
export type LeaveIntro = (path: string, language: Language) => void;

const LeaveContext = createContext<(path: string) => void>(() => undefined);

/** Whether a click asks the browser for something else than following the link here (a new tab, a download). */
function isModifiedClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
}

/** A link of the first screen: the app takes over at its address, without loading the page again. */
function LeavingLink({ to, onClick, target, ...anchor }: LinkTargetProps) {
  const leave = use(LeaveContext);
  return (
    <a
      {...anchor}
      href={to}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || isModifiedClick(event) || (target !== undefined && target !== '_self')) return;
        event.preventDefault();
        if (to !== window.location.pathname) leave(to);
      }}
    />
  );
}

/**
 * The first screen of a visitor (the intro at /, nobody signed in on this
 * device) on its own: the frame's header, the offline line and the intro, without the router,
 * the store and the API, so that it comes with the least JavaScript
 * (bench/README.md, First-load JavaScript). Its links start the app at their
 * address (`onLeave`, main.tsx); the language chosen here is applied and
 * remembered as the app does.
 */
export function IntroPage({ language: initial, onLeave }: { language: Language; onLeave: LeaveIntro }) {
  const [language, setLanguage] = useState(initial);
  const choice = useMemo<LanguageChoice>(
    () => ({
      language,
      choose(next) {
        setLanguage(next);
        applyLanguage(next);
        void saveLanguage(next);
      },
    }),
    [language],
  );
  const leave = useMemo(() => (path: string) => onLeave(path, language), [onLeave, language]);
  return (
    <LinkContext value={LeavingLink}>
      <LeaveContext value={leave}>
        <LanguageChoiceContext value={choice}>
          <div className="app-frame">
            <AppHeader />
            <BrowserConnectivity />
            <main className="app-main">
              <Suspense fallback={null}>
                <IntroScreen />
              </Suspense>
            </main>
          </div>
        </LanguageChoiceContext>
      </LeaveContext>
    </LinkContext>
  );
}

import { setupListeners } from '@reduxjs/toolkit/query';
import type { Root } from 'react-dom/client';
import { StrictMode, startTransition } from 'react';
import { App, preloadFirstScreen } from '../App.tsx';
import type { Language } from '../../shared/constants.ts';
import { followGuestChanges, restoreSession } from './deviceSession.ts';
import type { SavedDevice } from './savedDevice.ts';
import { makeStore } from './store.ts';

/**
 * Starts the app in `root` at the page's address: the store, in `language`
 * until the device's saved language and session (`saved`) are told to it, and
 * the routes (main.tsx decides when).
 */
export function startApp(root: Root, language: Language, saved: Promise<SavedDevice>): void {
  const firstScreen = preloadFirstScreen(window.location.pathname);
  const store = makeStore({ persist: true, preloadedState: { application: { language } } });
  void restoreSession(store, saved, firstScreen ?? Promise.resolve(undefined));
  followGuestChanges(store);
  // The browser's online and focus events reach the API, which refetches what is on screen when the network returns.
  setupListeners(store.dispatch);
  // A transition, so that React renders the app in short slices and the page stays responsive meanwhile.
  startTransition(() =>
    root.render(
      <StrictMode>
        <App store={store} />
      </StrictMode>,
    ),
  );
}

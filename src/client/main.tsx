import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { visitorLanding } from './app/access.ts';
import { registerServiceWorker } from './app/pwa.ts';
import { readSavedDevice, type SavedDevice } from './app/savedDevice.ts';
import { applyLanguage, i18n } from './i18n.ts';
import { detectLanguage } from './language.ts';
import type { LeaveIntro } from './features/intro/IntroPage.tsx';
import './ui/tokens.css';
import './ui/base.css';
import './styles.css';

/**
 * Starts the page. A visitor's first screen (the intro at /, nobody signed in
 * on this device) is shown on its own (features/intro/IntroPage.tsx), without
 * the router, the store and the API; the app (app/start.tsx) loads when the
 * visitor goes on from it, and at once on any other address or for a guest
 * signed in on this device.
 */
const container = document.getElementById('root');
if (container === null) {
  throw new Error('index.html has no #root element');
}
const root = createRoot(container);
const detected = detectLanguage();
applyLanguage(detected);
registerServiceWorker();
const saved = readSavedDevice();

function startApp(device: Promise<SavedDevice>): void {
  void import('./app/start.tsx').then(({ startApp: start }) => start(root, detected, device));
}

const leaveIntro: LeaveIntro = (path, language) => {
  window.history.pushState(null, '', path);
  startApp(Promise.resolve({ language, auth: null, returning: false }));
};

if (window.location.pathname === '/') {
  void i18n.loadNamespaces('intro');
  const page = import('./features/intro/IntroPage.tsx');
  void saved.then(async (device) => {
    if (device.auth !== null) {
      startApp(saved);
      return;
    }
    // A guest who signed out on this device comes back to sign in, not to the introduction.
    if (device.returning) {
      window.history.replaceState(null, '', visitorLanding(true));
      startApp(saved);
      return;
    }
    const { IntroPage } = await page;
    const language = device.language ?? detected;
    applyLanguage(language);
    root.render(
      <StrictMode>
        <IntroPage language={language} onLeave={leaveIntro} />
      </StrictMode>,
    );
  });
} else {
  startApp(saved);
}

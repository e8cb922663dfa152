import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadFirstScreen } from './App.tsx';
import { registerServiceWorker } from './app/pwa.ts';
import { followGuestChanges, restoreSession } from './app/deviceSession.ts';
import { makeStore } from './app/store.ts';
import { detectLanguage, i18n } from './i18n.ts';
import './ui/tokens.css';
import './ui/base.css';
import './styles.css';

const container = document.getElementById('root');
if (container === null) {
  throw new Error('index.html has no #root element');
}
const language = detectLanguage();
document.documentElement.lang = language;
void i18n.changeLanguage(language);

preloadFirstScreen(window.location.pathname);

const store = makeStore({ persist: true, preloadedState: { application: { language } } });
void restoreSession(store);
followGuestChanges(store);
registerServiceWorker();

createRoot(container).render(
  <StrictMode>
    <App store={store} />
  </StrictMode>,
);

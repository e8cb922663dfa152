import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { savedToken } from './api.ts';
import { ConsoleApp } from './App.tsx';
import { browserLanguage, createConsoleI18n } from './i18n.ts';
import { restoreSession } from './session.ts';
import { initialSessionState } from './sessionSlice.ts';
import { makeConsoleStore } from './store.ts';
import '../ui/tokens.css';
import '../ui/base.css';
import './warden.css';

/** The human wardens' console (warden.html, served at /warden). */
const container = document.getElementById('root');
if (container === null) throw new Error('warden.html has no #root element');

const language = browserLanguage(navigator.languages);
const i18n = createConsoleI18n(language);
document.documentElement.lang = language;
document.title = i18n.t('page_title');

const store = makeConsoleStore(initialSessionState(language, savedToken.read() !== null));
void restoreSession(store);

createRoot(container).render(
  <StrictMode>
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <ConsoleApp />
      </I18nextProvider>
    </Provider>
  </StrictMode>,
);

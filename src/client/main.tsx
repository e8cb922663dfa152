import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { detectLanguage } from './i18n.ts';
import './styles.css';

const container = document.getElementById('root');
if (container === null) {
  throw new Error('index.html has no #root element');
}
const language = detectLanguage();
document.documentElement.lang = language;

createRoot(container).render(
  <StrictMode>
    <App language={language} />
  </StrictMode>,
);

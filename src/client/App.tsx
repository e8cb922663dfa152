import { lazy, Suspense } from 'react';
import { BrowserRouter, Link, Navigate, Route, Routes } from 'react-router-dom';
import type { Language } from '../shared/constants.ts';
import { t } from './i18n.ts';

// The camera check brings the worker and the wasm; load it only when visited.
const CameraCheck = lazy(async () => {
  const module = await import('./vision/CameraCheck.tsx');
  return { default: module.CameraCheck };
});

interface Props {
  language: Language;
}

function Home({ language }: Props) {
  return (
    <section className="home">
      <h1>Warden</h1>
      <p className="tagline">{t(language, 'tagline')}</p>
      <p>{t(language, 'cameraCheckIntro')}</p>
      <Link className="button" to="/camera-check">
        {t(language, 'cameraCheckLink')}
      </Link>
    </section>
  );
}

/** The client shell: a header, the routes, and a catch-all back to the start. */
export function App({ language }: Props) {
  return (
    <BrowserRouter>
      <header className="app-header">
        <Link to="/" className="brand">
          {t(language, 'home')}
        </Link>
      </header>
      <main className="app-main">
        <Suspense fallback={<p className="loading">{t(language, 'loading')}</p>}>
          <Routes>
            <Route path="/" element={<Home language={language} />} />
            <Route path="/camera-check" element={<CameraCheck />} />
            <Route path="*" element={<Navigate to="/" replace />} />
          </Routes>
        </Suspense>
      </main>
    </BrowserRouter>
  );
}

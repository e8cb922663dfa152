import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { accessRedirect } from './access.ts';
import { useAppSelector } from './hooks.ts';
import { AppHeader } from './AppHeader.tsx';

/**
 * Applies the access rules (docs/client.md, Screens and routes) to every route: waits until the local
 * database has said whether a guest is signed in, then redirects or shows.
 * Meanwhile the frame's header stays, as index.html painted it.
 */
export function AccessGate({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const { auth, authChecked, returning } = useAppSelector((state) => state.session);
  if (!authChecked) {
    return (
      <div className="app-frame">
        <AppHeader />
      </div>
    );
  }
  const target = accessRedirect(pathname, auth !== null, returning === true);
  if (target !== null && target !== pathname) return <Navigate to={target} replace />;
  return <>{children}</>;
}

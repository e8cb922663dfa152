import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { accessRedirect } from './access.ts';
import { useAppSelector } from './hooks.ts';

/**
 * Applies the access rules (docs/client.md, Screens and routes) to every route: waits until the local
 * database has said whether a guest is signed in, then redirects or shows.
 */
export function AccessGate({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const { auth, authChecked } = useAppSelector((state) => state.session);
  if (!authChecked) return null;
  const target = accessRedirect(pathname, auth !== null);
  if (target !== null && target !== pathname) return <Navigate to={target} replace />;
  return <>{children}</>;
}

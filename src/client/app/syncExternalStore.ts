/**
 * What `use-sync-external-store/shim` gives a library (react-i18next) under
 * React 18 and later: React's own `useSyncExternalStore`. The build points the
 * shim here (vite.config.ts, `resolve.alias`) so that the shim's fallback for
 * older React, which never runs, is not downloaded.
 */
export { useSyncExternalStore } from 'react';

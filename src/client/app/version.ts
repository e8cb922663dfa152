/** Build version number of the client, shown on /guest/show. */
export const CLIENT_VERSION = 70;

/** The package version, set by vite.config.ts at build time. */
declare const __APP_VERSION__: string | undefined;

/** The package version of this build ('0.1.0'), or 'dev' outside a Vite build. */
export const PACKAGE_VERSION: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'dev';

/** The build version shown on /guest/show: the client version (docs/rules.md, Client constants) and the package version, '70 (0.1.0)'. */
export const BUILD_VERSION = `${CLIENT_VERSION} (${PACKAGE_VERSION})`;

/**
 * The guest's home: where a signed-in guest lands, the reservation list
 * (docs/client.md, Screens and routes). The server answers it with the page
 * that preloads the list (home.html, vite.config.ts `appPages`).
 */
export const HOME_PATH = '/reservations';

/**
 * The access rules (docs/client.md, Screens and routes), as a pure function of the path and whether a
 * guest is signed in: where to send the page, or null to stay.
 */
import { HOME_PATH } from '../../shared/pages.ts';

/** Paths a visitor may open: any path containing one of these. */
export const PUBLIC_PATH_PARTS = [
  'signin',
  'signup',
  'guest/resetPasswordEmail',
  'guest/updatePassword',
  'guest/takeBack',
  'guest/verifyEmail',
  'guest/loginAsLimFacilitator',
  'guest/deleted',
] as const;

/** Pages outside the rules, open to everyone: the camera check (a device check, not an account page). */
export const OPEN_PATHS = ['/camera-check'] as const;

/** Where a visitor lands: the sign-in screen on a device a guest has signed out on (`returning`), else the intro. */
export function visitorLanding(returning: boolean): string {
  return returning ? '/signin' : '/';
}

export function accessRedirect(pathname: string, loggedIn: boolean, returning = false): string | null {
  if (OPEN_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`))) return null;
  if (!loggedIn) {
    if (pathname === '/') return null;
    return PUBLIC_PATH_PARTS.some((part) => pathname.includes(part)) ? null : visitorLanding(returning);
  }
  if (pathname === '/' || pathname.includes('signin') || pathname.includes('signup') || pathname.includes('index.html')) {
    return HOME_PATH;
  }
  return null;
}

import type { NetworkState } from './slices/network.ts';

/**
 * What the shell shows of the network state (docs/client.md, Global UI), as
 * one message at a time: the overlay turns its spinner only while calls run
 * and no error is shown; an error shows in the banner over a still overlay;
 * offline, the offline notice alone says so (no banner, no overlay for it).
 */
export interface GlobalUi {
  /** The scrim over the screen: none, busy (a spinner: calls run), or still (behind the error banner). */
  overlay: 'none' | 'busy' | 'still';
  /** The error message the banner shows (its OK clears it), or null. */
  banner: string | null;
  /** Whether the offline notice shows. */
  offline: boolean;
}

export function globalUi(network: Pick<NetworkState, 'calling' | 'errorMessage' | 'displayError' | 'isInternetAvailable'>): GlobalUi {
  const offline = !network.isInternetAvailable;
  // Offline, the stored error is the no-internet one or a call cut by it: the notice says it once.
  const banner = !offline && network.displayError ? network.errorMessage : null;
  const overlay = banner !== null ? 'still' : network.calling.length > 0 ? 'busy' : 'none';
  return { overlay, banner, offline };
}

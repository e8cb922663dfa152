/** The router state the detail page leaves for the list after a skip: what was skipped, in the guest's words (texts `skip_done`). */
export interface SkippedState {
  skipped: string;
}

/** The skip a router state tells of, or null. */
export function skippedOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('skipped' in state)) return null;
  return typeof state.skipped === 'string' ? state.skipped : null;
}

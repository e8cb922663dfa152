import type { UnknownAction } from '@reduxjs/toolkit';

/**
 * Matches the fulfilled action of any RTK Query endpoint named `names`
 * (queries and mutations alike), so that the slices apply SPEC §4's data
 * rules whichever feature injected the endpoint. The payload is the answer's
 * body (the envelope's payload fields beside `api`).
 */
export function endpointFulfilled(...names: string[]) {
  return (action: UnknownAction): action is UnknownAction & { payload: Record<string, unknown>; meta: { arg: { endpointName: string } } } => {
    if (typeof action.type !== 'string' || !action.type.startsWith('api/') || !action.type.endsWith('/fulfilled')) return false;
    const meta = (action as { meta?: { arg?: { endpointName?: unknown } } }).meta;
    return typeof meta?.arg?.endpointName === 'string' && names.includes(meta.arg.endpointName);
  };
}

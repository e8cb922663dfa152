import type { Progress } from '../../../shared/api/progress.ts';
import { api } from '../../app/api.ts';

/** The progress screen's one call (docs/progress.md). */
export const progressApi = api.injectEndpoints({
  endpoints: (build) => ({
    progressRead: build.query<{ progress: Progress }, void>({
      query: () => ({ path: '/progress/read', body: {}, auth: true }),
    }),
  }),
});

export const { useProgressReadQuery } = progressApi;

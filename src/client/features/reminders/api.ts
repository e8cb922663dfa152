import type { CalendarFeed } from '../../../shared/api/collaboration.ts';
import { api, guestChanged } from '../../app/api.ts';

/** The calendar feed's calls (docs/calendar.md); the guest object says whether there is one (`calendarFeedHint`). */
export const remindersApi = api.injectEndpoints({
  endpoints: (build) => ({
    guestRegenerateCalendarFeed: build.mutation<{ calendarFeed: CalendarFeed }, void>({
      query: () => ({ path: '/guest/regenerateCalendarFeed', body: {}, auth: true }),
      invalidatesTags: guestChanged,
    }),
    guestRemoveCalendarFeed: build.mutation<Record<string, never>, void>({
      query: () => ({ path: '/guest/removeCalendarFeed', body: {}, auth: true }),
      invalidatesTags: guestChanged,
    }),
  }),
});

export const { useGuestRegenerateCalendarFeedMutation, useGuestRemoveCalendarFeedMutation } = remindersApi;

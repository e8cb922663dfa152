import type { CalendarFeed } from '../../../shared/api/collaboration.ts';
import type { Reminders } from '../../../shared/api/reminders.ts';
import type { ReminderLead } from '../../../shared/reservations.ts';
import { api, guestChanged } from '../../app/api.ts';

/** The calendar feed's and the reminders' calls (docs/calendar.md, docs/reminders.md). */
export const remindersApi = api.enhanceEndpoints({ addTagTypes: ['Reminders'] }).injectEndpoints({
  endpoints: (build) => ({
    guestRegenerateCalendarFeed: build.mutation<{ calendarFeed: CalendarFeed }, void>({
      query: () => ({ path: '/guest/regenerateCalendarFeed', body: {}, auth: true }),
      invalidatesTags: guestChanged,
    }),
    guestRemoveCalendarFeed: build.mutation<Record<string, never>, void>({
      query: () => ({ path: '/guest/removeCalendarFeed', body: {}, auth: true }),
      invalidatesTags: guestChanged,
    }),
    guestReadReminders: build.query<{ reminders: Reminders }, void>({
      query: () => ({ path: '/guest/readReminders', body: {}, auth: true }),
      providesTags: ['Reminders'],
    }),
    guestUpdateReminders: build.mutation<{ reminders: Reminders }, { leadMinutes: ReminderLead | null; byEmail: boolean }>({
      query: (reminders) => ({ path: '/guest/updateReminders', body: { reminders }, auth: true }),
      invalidatesTags: ['Reminders'],
    }),
    guestAddPushDevice: build.mutation<{ reminders: Reminders }, { endpoint: string; keys: { p256dh: string; auth: string }; label: string }>({
      query: (device) => ({ path: '/guest/addPushDevice', body: { device }, auth: true }),
      invalidatesTags: ['Reminders'],
    }),
    guestRemovePushDevice: build.mutation<{ reminders: Reminders }, { id: number }>({
      query: (device) => ({ path: '/guest/removePushDevice', body: { device }, auth: true }),
      invalidatesTags: ['Reminders'],
    }),
  }),
});

export const {
  useGuestRegenerateCalendarFeedMutation,
  useGuestRemoveCalendarFeedMutation,
  useGuestReadRemindersQuery,
  useGuestUpdateRemindersMutation,
  useGuestAddPushDeviceMutation,
  useGuestRemovePushDeviceMutation,
} = remindersApi;

import { calendarText, jailCalendarOptions, singleJailEvent } from '../../../shared/calendar.ts';
import type { Language } from '../../../shared/constants.ts';
import type { Reservation } from '../../../shared/api/reservation.ts';
import { toLocal } from '../../../shared/time-zone.ts';
import { dateKey } from './booking-form.ts';

/** One jail as a calendar file: its name and its iCalendar text (docs/calendar.md, "Add to calendar"). */
export function jailEventFile(
  reservation: Pick<Reservation, 'id' | 'startTime' | 'endTime' | 'work'>,
  timeZone: string,
  language: Language,
  appUrl: string,
  now: number,
): { name: string; text: string } {
  const site = { appUrl, language };
  return {
    name: `warden-${dateKey(toLocal(reservation.startTime, timeZone))}.ics`,
    text: calendarText([singleJailEvent({ ...reservation, timeZone }, site)], jailCalendarOptions(site, timeZone, now)),
  };
}

/** Downloads the file: a phone's browser then offers to add the event to its calendar. */
export function downloadFile(file: { name: string; text: string }, type: string): void {
  const url = URL.createObjectURL(new Blob([file.text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  link.click();
  // The download has started from the click; the address is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

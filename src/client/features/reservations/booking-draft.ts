import { REPEAT_TYPES } from '../../../shared/constants.ts';
import type { BookingFormState } from './booking-form.ts';

/**
 * A booking not sent yet, carried in the router's state through the phone
 * gate and back (docs/client.md, Form rules): Book without a phone number
 * goes to /guest/editPhone with it, and the number verified, the form comes
 * back with what the guest had entered.
 */
export interface PhoneGateState {
  bookingDraft: BookingFormState;
}

function isBookingForm(value: unknown): value is BookingFormState {
  if (typeof value !== 'object' || value === null) return false;
  const form = value as Record<keyof BookingFormState, unknown>;
  return (
    typeof form.date === 'string' &&
    typeof form.minutes === 'number' &&
    typeof form.duration === 'number' &&
    REPEAT_TYPES.some((type) => type === form.repeatType) &&
    Array.isArray(form.dailyRepeatSettings) &&
    form.dailyRepeatSettings.every((day) => typeof day === 'number') &&
    typeof form.work === 'string' &&
    typeof form.rememberWork === 'boolean' &&
    Array.isArray(form.schedules)
  );
}

/** The draft a router state carries, or null (a state of another kind, or none). */
export function bookingDraftOf(state: unknown): BookingFormState | null {
  if (typeof state !== 'object' || state === null || !('bookingDraft' in state)) return null;
  return isBookingForm(state.bookingDraft) ? state.bookingDraft : null;
}

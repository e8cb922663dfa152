/**
 * The reservation screens (docs/client.md, Screens and routes); App.tsx routes to these exports by name. The list, the
 * guest's home, is a chunk of its own (list/ListScreen.tsx, with its texts): it needs neither the booking form, nor the report, nor the reminders.
 */
import './reservations.css';

export { ReservationAddScreen, ReservationEditScreen } from './BookingFormScreen.tsx';
export { ReservationAddedScreen, ReservationEditedScreen, ReservationRemoveScreen, ReservationRemovedScreen } from './RemoveScreens.tsx';
export { ReservationDetailScreen } from './DetailScreen.tsx';

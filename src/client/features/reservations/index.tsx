/**
 * The reservation screens (docs/client.md, Screens and routes); App.tsx routes to these exports by name.
 */
import './reservations.css';

export { ReservationListScreen } from './ListScreen.tsx';
export { ReservationAddScreen, ReservationEditScreen } from './BookingFormScreen.tsx';
export { ReservationAddedScreen, ReservationEditedScreen, ReservationRemoveScreen, ReservationRemovedScreen } from './RemoveScreens.tsx';
export { ReservationDetailScreen } from './DetailScreen.tsx';

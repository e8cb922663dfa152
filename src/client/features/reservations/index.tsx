/**
 * The reservation screens (SPEC §2). PLACEHOLDERS from the shell: the
 * reservations helper replaces them, keeping these exports (App.tsx routes to
 * them by name).
 */
import { Placeholder } from '../../app/Layout.tsx';

export const ReservationListScreen = () => <Placeholder title="Reservations" />;
export const ReservationAddScreen = () => <Placeholder title="Book a jail" />;
export const ReservationAddedScreen = () => <Placeholder title="Booked" />;
export const ReservationEditScreen = () => <Placeholder title="Edit" />;
export const ReservationEditedScreen = () => <Placeholder title="Changes saved" />;
export const ReservationRemoveScreen = () => <Placeholder title="Cancel" />;
export const ReservationRemovedScreen = () => <Placeholder title="Cancelled" />;
export const ReservationDetailScreen = () => <Placeholder title="Reservation" />;

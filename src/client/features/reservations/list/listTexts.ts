/**
 * The texts the reservation list shows: its own, and those of the offer to
 * try a jail that an empty list shows (tryAnyway/TryOffer.tsx), so that the
 * offer does not wait for its texts once the list is read. App.tsx loads them
 * ahead when the app starts at the list.
 */
export const LIST_NAMESPACES = ['reservations/list', 'tryAnyway'] as const;

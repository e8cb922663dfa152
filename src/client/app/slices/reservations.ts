import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Reservation } from '../../../shared/api/reservation.ts';
import { loggedOut } from './guest.ts';
import { endpointFulfilled } from './matchers.ts';

/**
 * The reservation list (SPEC §3) with §4's data rules: create appends, read
 * list replaces, read one and update replace or add by id, destroy removes.
 * The rules run for the endpoints named below, whichever feature injects them.
 */
export interface ReservationsState {
  list: Reservation[];
}

const initialState: ReservationsState = { list: [] };

function upsert(state: ReservationsState, reservation: Reservation) {
  const index = state.list.findIndex((item) => item.id === reservation.id);
  if (index === -1) state.list.push(reservation);
  else state.list[index] = reservation;
}

export const reservationsSlice = createSlice({
  name: 'reservations',
  initialState,
  reducers: {
    reservationAppended(state, action: PayloadAction<Reservation>) {
      state.list.push(action.payload);
    },
    reservationsReplaced(state, action: PayloadAction<Reservation[]>) {
      state.list = action.payload;
    },
    reservationUpserted(state, action: PayloadAction<Reservation>) {
      upsert(state, action.payload);
    },
    reservationRemoved(state, action: PayloadAction<number>) {
      state.list = state.list.filter((item) => item.id !== action.payload);
    },
  },
  extraReducers(builder) {
    builder
      .addCase(loggedOut, (state) => {
        state.list = [];
      })
      .addMatcher(endpointFulfilled('reservationCreate'), (state, action) => {
        const reservation = action.payload.reservation as Reservation | undefined;
        if (reservation !== undefined) state.list.push(reservation);
      })
      .addMatcher(endpointFulfilled('reservationReadList'), (state, action) => {
        const reservations = action.payload.reservations as Reservation[] | undefined;
        if (reservations !== undefined) state.list = reservations;
      })
      .addMatcher(endpointFulfilled('reservationRead', 'reservationUpdate', 'reservationSkip'), (state, action) => {
        for (const key of ['reservation', 'nextReservation']) {
          const reservation = action.payload[key] as Reservation | undefined;
          if (reservation !== undefined && reservation !== null) upsert(state, reservation);
        }
      })
      .addMatcher(endpointFulfilled('reservationDestroy'), (state, action) => {
        const reservation = action.payload.reservation as Reservation | undefined;
        if (reservation !== undefined) state.list = state.list.filter((item) => item.id !== reservation.id);
      });
  },
});

export const { reservationAppended, reservationsReplaced, reservationUpserted, reservationRemoved } = reservationsSlice.actions;

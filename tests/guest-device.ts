/**
 * A guest's device as a socket.io client in the test process: connected to
 * the relay, in the jail, with one patrol image sent. For tests that need a
 * live jail without a camera page (the console, the history's outcomes).
 */
import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import type { GuestToServerEvents, ServerToGuestEvents } from '../src/shared/relay.ts';

export type GuestSocket = Socket<ServerToGuestEvents, GuestToServerEvents>;

const PATROL_IMAGE = `data:image/jpeg;base64,${readFileSync(new URL('../src/server/jail/fixtures/canvas-40x30.jpg', import.meta.url)).toString('base64')}`;

/** A fresh event id, as the client makes them. */
export function eventId(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

/** Moves the server's clock (`POST /dev/clock`, which runs the scheduler before it answers). */
export async function setClockOffset(request: APIRequestContext, offsetMs: number): Promise<void> {
  const response = await request.post('/dev/clock', { data: { offsetMs } });
  expect(response.ok(), 'POST /dev/clock').toBe(true);
}

/** The `api` and `guest` blocks every guest event carries. */
export function fromGuest(guest: { id: number }) {
  return { api: { language: 'en' as const }, guest: { id: guest.id } };
}

/** Connects as the guest, says it is in the jail and sends one patrol image. */
export async function connectGuest(baseURL: string, guest: { id: number; token: string }): Promise<GuestSocket> {
  const socket: GuestSocket = io(baseURL, {
    path: '/socket.io',
    auth: { guest: { id: guest.id, token: guest.token } },
    extraHeaders: { origin: baseURL },
    transports: ['websocket'],
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const from = fromGuest(guest);
  expect(
    (await socket.emitWithAck('initialize_from_guest', { api: { language: 'en', userAgent: 'playwright', version: 70 }, guest: { id: guest.id } })).ok,
  ).toBe(true);
  expect(await socket.emitWithAck('check_alive_from_guest', { ...from, jailStatus: 'injail' })).toEqual({ ok: true });
  expect(await socket.emitWithAck('patrol_from_guest', { ...from, eventId: eventId(), patrol: { data: PATROL_IMAGE } })).toEqual({ ok: true });
  return socket;
}

/** Moves the server's clock a minute into the jail (the scheduler starts it) and connects the guest's device. */
export async function enterJail(
  request: APIRequestContext,
  baseURL: string,
  guest: { id: number; token: string },
  jail: { startTime: number },
): Promise<GuestSocket> {
  await setClockOffset(request, jail.startTime + 60_000 - Date.now());
  return connectGuest(baseURL, guest);
}

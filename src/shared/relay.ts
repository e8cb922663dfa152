import { z } from 'zod';
import { LANGUAGES } from './constants.ts';
import type { activityLogSchema } from './api/reservation.ts';
import { JAIL_STATUSES, type AlertKind, type FinishKind, type JailStatus, type MotionEventName, type Speaker } from './jail-vocabulary.ts';
import type { IceServer } from './api/warden.ts';

/**
 * The realtime relay (docs/jail.md, Relay): the socket.io events between a
 * guest's device, the server and the human wardens' console, with a zod
 * schema for every payload that reaches the server. The server validates
 * each payload with these schemas and answers every event from a client
 * with a `RelayAck`; a bad payload is refused and never stored.
 */

// --- Shared pieces -----------------------------------------------------------

const MAX_ID = 2_147_483_647;
const idSchema = z.number().int().min(1).max(MAX_ID);

/**
 * A client's id for an event that creates a log. The server stores each
 * (jail, eventId) once: a retry after a reconnect duplicates nothing.
 */
export const eventIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/** A guest's available commands: 1-6 (docs/jail.md, Commands), each once. */
export const commandsSchema = z
  .array(z.number().int().min(1).max(6))
  .max(6)
  .refine((commands) => new Set(commands).size === commands.length);

export const jailStatusSchema = z.enum(JAIL_STATUSES);

/** Spoken or typed text in a dialog: 1 to 500 characters. */
export const dialogTextSchema = z.string().trim().min(1).max(500);

/** The largest patrol image the server keeps (a 100 px JPEG is a few KB). */
export const PATROL_IMAGE_MAX_BYTES = 24 * 1024;

/**
 * A patrol image: a JPEG data URL of at most `PATROL_IMAGE_MAX_BYTES`; the
 * server also reads its size from the JPEG header (at most 100 px, docs/rules.md).
 */
export const patrolImageSchema = z
  .string()
  .max(Math.ceil((PATROL_IMAGE_MAX_BYTES * 4) / 3) + 32)
  .regex(/^data:image\/jpeg;base64,[A-Za-z0-9+/]+={0,2}$/);

/** The `api` block each guest event carries (docs/jail.md, Relay). */
const relayApiSchema = z.object({ language: z.enum(LANGUAGES) });

/** Who sends a guest event: the socket's guest, named again (docs/jail.md, Relay). */
const relayGuestSchema = z.object({ id: idSchema });

const guestEvent = <Shape extends z.ZodRawShape>(shape: Shape) => z.object({ api: relayApiSchema, guest: relayGuestSchema, ...shape });

// --- From the guest ------------------------------------------------------------

export const initializeFromGuestSchema = z.object({
  api: relayApiSchema.extend({ userAgent: z.string().max(500), version: z.number().int().min(0).max(1_000_000) }),
  guest: relayGuestSchema,
});

export const checkAliveFromGuestSchema = guestEvent({ jailStatus: jailStatusSchema });

export const jailStatusFromGuestSchema = guestEvent({ eventId: eventIdSchema, jailStatus: jailStatusSchema });

export const updateCommandsFromGuestSchema = guestEvent({ commands: commandsSchema });

export const dialogFromGuestSchema = guestEvent({ eventId: eventIdSchema, dialog: z.object({ text: dialogTextSchema }) });

export const motionFromGuestSchema = guestEvent({
  eventId: eventIdSchema,
  /** `type` 1 = motion detected, 0 = none; `time` when the device saw it (epoch ms). */
  motion: z.object({ type: z.union([z.literal(0), z.literal(1)]), time: z.number().int().min(0).max(8.64e15).optional() }),
});

export const patrolFromGuestSchema = guestEvent({ eventId: eventIdSchema, patrol: z.object({ data: patrolImageSchema }) });

export const finishEarlyFromGuestSchema = guestEvent({
  eventId: eventIdSchema,
  reservation: z.object({ id: idSchema }),
  /** The excuse: required (docs/jail.md, Commands). */
  instruction: z.object({ text: dialogTextSchema }),
});

/** WebRTC signalling between a guest and the warden watching them; the server only relays it. */
export const webrtcHandshakeSchema = z.object({
  /** The receiving side: 'guest:{id}' from a warden, 'warden:{id}' from a guest. */
  to: z.string().regex(/^(guest|warden):[1-9][0-9]{0,9}$/),
  type: z.enum(['offer', 'answer', 'candidate', 'hangup']),
  description: z.object({ type: z.enum(['offer', 'answer']), sdp: z.string().max(20_000) }).optional(),
  candidate: z
    .object({
      candidate: z.string().max(2_000),
      sdpMid: z.string().max(100).nullable().optional(),
      sdpMLineIndex: z.number().int().min(0).max(100).nullable().optional(),
    })
    .optional(),
});
export type WebrtcHandshake = z.infer<typeof webrtcHandshakeSchema>;
/**
 * What the receiver gets: the message and who sent it; a warden's offer
 * reaches the guest with the STUN and TURN servers to answer it through,
 * with TURN credentials made for this call (docs/jail.md, Live video).
 */
export type WebrtcHandshakeDelivered = WebrtcHandshake & { from: string; iceServers?: IceServer[] };

// --- What the server tells a guest ------------------------------------------

export interface RelayWarden {
  id: number;
  title: string;
}

/** A jail as its guest sees it. */
export interface GuestJail {
  reservationId: number;
  work: string;
  startTime: number;
  endTime: number;
  jailStatus: JailStatus;
  /** When the current status began (epoch ms, server clock). */
  statusSince: number;
  commands: number[];
}

/** Every answer to an event from a client. */
export type RelayAck = { ok: true; duplicate?: boolean } | { ok: false; error: string };

type Ack = (ack: RelayAck) => void;

export interface ServerToGuestEvents {
  connected: (payload: { clientId: string }) => void;
  update_commands_to_guest: (payload: { commands: number[] }) => void;
  feature_images_to_guest: (payload: { featureImages: { id: number; data: string }[] }) => void;
  warden_dialog_event_to_guest: (payload: { dialog: { type: 1; text: string; by: Speaker } }) => void;
  /** A warden asks for a patrol image now. */
  patrol_to_guest: (payload: Record<string, never>) => void;
  /** A callup: the Warden calls the guest back to the work. */
  focus_to_guest: (payload: { text: string }) => void;
  jail_start_to_guest: (payload: { jail: GuestJail; warden: RelayWarden | null }) => void;
  jail_resume_to_guest: (payload: { guest: { jailStatus: JailStatus; statusSince: number }; jail: GuestJail; warden: RelayWarden | null }) => void;
  jail_finish_to_guest: (payload: { reservationId: number; finish: FinishKind }) => void;
  jail_update_to_guest: (payload: { guest: { jailStatus: JailStatus; statusSince: number }; warden: RelayWarden | null }) => void;
  video_reconnect_to_guest: (payload: Record<string, never>) => void;
  webrtc_handshake: (payload: WebrtcHandshakeDelivered) => void;
}

export type GuestEventPayload<Schema extends z.ZodType> = z.input<Schema>;

/** Each motion event of `MOTION_EVENTS`, with the one payload they share. */
type MotionEventsFromGuest = { [Event in MotionEventName]: (payload: GuestEventPayload<typeof motionFromGuestSchema>, ack: Ack) => void };

export interface GuestToServerEvents extends MotionEventsFromGuest {
  /** Answers the live jail, if one runs. */
  initialize_from_guest: (payload: GuestEventPayload<typeof initializeFromGuestSchema>, ack: (ack: RelayAck & { jail?: GuestJail | null }) => void) => void;
  check_alive_from_guest: (payload: GuestEventPayload<typeof checkAliveFromGuestSchema>, ack: Ack) => void;
  jail_status_from_guest: (payload: GuestEventPayload<typeof jailStatusFromGuestSchema>, ack: Ack) => void;
  update_commands_from_guest: (payload: GuestEventPayload<typeof updateCommandsFromGuestSchema>, ack: Ack) => void;
  guest_dialog_event_from_guest: (payload: GuestEventPayload<typeof dialogFromGuestSchema>, ack: Ack) => void;
  snitch_dialog_event_from_guest: (payload: GuestEventPayload<typeof dialogFromGuestSchema>, ack: Ack) => void;
  patrol_from_guest: (payload: GuestEventPayload<typeof patrolFromGuestSchema>, ack: Ack) => void;
  jail_finish_early_from_guest: (payload: GuestEventPayload<typeof finishEarlyFromGuestSchema>, ack: Ack) => void;
  webrtc_handshake: (payload: WebrtcHandshake, ack: Ack) => void;
}

// --- The wardens' console ------------------------------------------------------

/** A live jail as the wardens' console lists it. */
export interface LiveJail {
  reservationId: number;
  guest: { id: number; title: string };
  work: string;
  startTime: number;
  endTime: number;
  jailStatus: JailStatus;
  statusSince: number;
  /** Whether the guest's device is connected now. */
  connected: boolean;
  /** When the guest first came into this jail; null while they have not. */
  enteredAt: number | null;
  latestPatrol: { data: string; time: number } | null;
  /** Since when the camera has found the seat empty (an away event with no back or status change after it); null otherwise. */
  awaySince: number | null;
  /** The alerts of the last 20 minutes, oldest first. */
  alerts: { kind: AlertKind; time: number }[];
  commands: number[];
  warden: RelayWarden | null;
}

export type ActivityLogEntry = z.infer<typeof activityLogSchema>;

const reservationIdSchema = z.object({ reservationId: idSchema });

export const openJailFromWardenSchema = reservationIdSchema;
export const dialogFromWardenSchema = reservationIdSchema.extend({ eventId: eventIdSchema, text: dialogTextSchema });
export const callupFromWardenSchema = reservationIdSchema.extend({ eventId: eventIdSchema, text: dialogTextSchema.optional() });
export const updateCommandsFromWardenSchema = reservationIdSchema.extend({ commands: commandsSchema });
/** Approves the scene of a patrol image (by its log id): it joins the guest's whitelist. */
export const featureImageFromWardenSchema = reservationIdSchema.extend({ patrolLogId: idSchema });
export const finishJailFromWardenSchema = reservationIdSchema.extend({ eventId: eventIdSchema, reason: dialogTextSchema });
export const requestPatrolFromWardenSchema = reservationIdSchema;
/** The STUN and TURN servers for watching a live jail, with TURN credentials made for this call. */
export const iceServersFromWardenSchema = reservationIdSchema;
/** The page of an open jail's logs before the oldest the console has (its log id). */
export const jailLogsFromWardenSchema = reservationIdSchema.extend({ before: idSchema });

/** A page of a jail's logs, oldest first (at most `JAIL_LOG_PAGE`), and whether earlier ones remain. */
type JailLogPage = { logs?: (ActivityLogEntry & { id: number })[]; hasEarlier?: boolean };

export interface WardenToServerEvents {
  open_jail_from_warden: (payload: z.input<typeof openJailFromWardenSchema>, ack: (ack: RelayAck & { jail?: LiveJail } & JailLogPage) => void) => void;
  jail_logs_from_warden: (payload: z.input<typeof jailLogsFromWardenSchema>, ack: (ack: RelayAck & JailLogPage) => void) => void;
  close_jail_from_warden: (payload: z.input<typeof openJailFromWardenSchema>, ack: Ack) => void;
  dialog_from_warden: (payload: z.input<typeof dialogFromWardenSchema>, ack: Ack) => void;
  callup_from_warden: (payload: z.input<typeof callupFromWardenSchema>, ack: Ack) => void;
  update_commands_from_warden: (payload: z.input<typeof updateCommandsFromWardenSchema>, ack: Ack) => void;
  feature_image_from_warden: (payload: z.input<typeof featureImageFromWardenSchema>, ack: Ack) => void;
  finish_jail_from_warden: (payload: z.input<typeof finishJailFromWardenSchema>, ack: Ack) => void;
  request_patrol_from_warden: (payload: z.input<typeof requestPatrolFromWardenSchema>, ack: Ack) => void;
  ice_servers_from_warden: (payload: z.input<typeof iceServersFromWardenSchema>, ack: (ack: RelayAck & { iceServers?: IceServer[] }) => void) => void;
  webrtc_handshake: (payload: WebrtcHandshake, ack: Ack) => void;
}

export interface ServerToWardenEvents {
  connected: (payload: { clientId: string; warden: RelayWarden }) => void;
  /** Every live jail: on connecting, and whenever a jail starts or finishes. */
  live_jails_to_warden: (payload: { jails: LiveJail[]; serverTime: number }) => void;
  /** One live jail changed (its status, patrol image, alerts, commands or connection). */
  live_jail_to_warden: (payload: { jail: LiveJail; serverTime: number }) => void;
  /** A new log of a jail the warden has open. */
  jail_log_to_warden: (payload: { reservationId: number; log: ActivityLogEntry & { id: number } }) => void;
  webrtc_handshake: (payload: WebrtcHandshakeDelivered) => void;
}

/** The socket.io handshake `auth` of each side; a warden's `language` is that of the refusals they get. */
export type RelayAuth = { guest: { id: number; token: string } } | { warden: { token: string; language?: 'ja' | 'en' } };

export const relayAuthSchema = z.union([
  z.object({ guest: z.object({ id: idSchema, token: z.string().min(1).max(200) }) }),
  z.object({ warden: z.object({ token: z.string().min(1).max(200), language: z.enum(LANGUAGES).optional() }) }),
]);

/** The path socket.io serves the relay at. */
export const RELAY_PATH = '/socket.io';

/**
 * socket.io's disconnect reason when the server ended the socket: socket.io
 * does not reconnect by itself after it, so the clients do (docs/jail.md,
 * Relay: Reconnecting).
 */
export const SERVER_HUNG_UP = 'io server disconnect';

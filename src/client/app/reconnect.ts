/** How the client's sockets (the guest's relay and the console's) reconnect after a drop. */

import { SECOND_MS as SECOND } from '../../shared/durations.ts';

/** The relay reconnects after 1 s at first, backing off to 5 s, and gives up after 20 attempts. */
export const RELAY_RECONNECT_DELAY_MS = SECOND;
export const RELAY_RECONNECT_DELAY_MAX_MS = 5 * SECOND;
export const RELAY_RECONNECT_ATTEMPTS = 20;

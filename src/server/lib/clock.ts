/** The server's time, in epoch milliseconds. Every rule reads time from here. */
export interface Clock {
  now(): number;
}

/**
 * The real clock shifted by an offset: with `WARDEN_DEV=1` `POST /dev/clock`
 * sets the offset so that tests can move through days in a moment.
 */
export class AdjustableClock implements Clock {
  offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }
}

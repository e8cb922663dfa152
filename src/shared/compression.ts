/**
 * Below about 1 KB compressing saves less than it costs: the server
 * compresses its answers above this size (app.ts), and the build writes
 * Brotli and gzip copies of the client's files above it (vite.config.ts).
 */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

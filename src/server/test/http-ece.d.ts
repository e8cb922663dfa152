/** The part of Mozilla's `http_ece` (web-push's encryption) the reminder tests use to decrypt a push as a browser would. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  interface DecryptParams {
    version: 'aes128gcm';
    privateKey: ECDH;
    authSecret: Buffer;
  }
  const ece: { decrypt(buffer: Buffer, params: DecryptParams): Buffer };
  export default ece;
}

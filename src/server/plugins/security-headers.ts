import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

/**
 * The content security policy. `'wasm-unsafe-eval'` lets the camera worker
 * compile the vision WebAssembly without allowing `eval`; workers come from
 * our origin (or a blob URL); camera frames and patrol thumbnails are blob
 * and data URLs. With Stripe as the payment provider, its script, its card
 * frames and its API are allowed too (Stripe.js's documented needs).
 */
export function contentSecurityPolicy({ stripe }: { stripe: boolean }): string {
  const STRIPE_JS = 'https://js.stripe.com';
  return [
    "default-src 'self'",
    `script-src 'self' 'wasm-unsafe-eval'${stripe ? ` ${STRIPE_JS}` : ''}`,
    "worker-src 'self' blob:",
    `connect-src 'self' data: blob:${stripe ? ' https://api.stripe.com' : ''}`,
    "img-src 'self' data: blob:",
    "media-src 'self' blob: mediastream:",
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self'",
    "manifest-src 'self'",
    `frame-src ${stripe ? `${STRIPE_JS} https://hooks.stripe.com` : "'none'"}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Served over https (`PUBLIC_URL`), browsers are told to come back only over
 * https for a year, on every subdomain too, so that nobody on the way can
 * downgrade a visit to plain http.
 */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

export type SecurityHeadersOptions = {
  stripe: boolean;
  /** The public origin (`PUBLIC_URL`), when known: https turns HSTS on. */
  publicUrl: string | null;
};

/** Security headers on every response; API responses are never cached. */
async function securityHeadersPlugin(app: FastifyInstance, { stripe, publicUrl }: SecurityHeadersOptions): Promise<void> {
  const policy = contentSecurityPolicy({ stripe });
  const https = publicUrl?.startsWith('https:') ?? false;
  app.addHook('onSend', async (request, reply, payload) => {
    if (https) reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('permissions-policy', `camera=(self), microphone=(self), geolocation=(), payment=(${stripe ? 'self "https://js.stripe.com"' : ''})`);
    reply.header('content-security-policy', policy);
    if (request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/api?')) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });
}

export default fastifyPlugin(securityHeadersPlugin, { name: 'security-headers' });

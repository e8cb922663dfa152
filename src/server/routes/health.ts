import type { FastifyPluginAsync } from 'fastify';

export interface HealthOptions extends Record<string, unknown> {
  version: string;
}

export interface HealthResponse {
  status: 'ok';
  version: string;
}

const healthSchema = {
  response: {
    200: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['ok'] },
        version: { type: 'string' },
      },
      required: ['status', 'version'],
      additionalProperties: false,
    },
  },
} as const;

/** `GET /api/health`: the server is up, and which release it runs. */
const health: FastifyPluginAsync<HealthOptions> = async (app, options) => {
  app.get('/health', { schema: healthSchema }, async (): Promise<HealthResponse> => ({
    status: 'ok',
    version: options.version,
  }));
};

export default health;

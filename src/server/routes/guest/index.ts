import type { FastifyPluginAsync } from 'fastify';
import account from './account.ts';

/** The guest calls of SPEC §7, under /api/guest. */
const guest: FastifyPluginAsync = async (app) => {
  await app.register(account);
};

export default guest;

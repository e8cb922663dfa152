import type { FastifyPluginAsync } from 'fastify';
import account from './account.ts';
import deletion from './delete.ts';
import dataExport from './export.ts';
import mailLinks from './mail-links.ts';
import payments from './payments.ts';
import profile from './profile.ts';
import sessionRoutes from './sessions.ts';

/** The guest calls (docs/api.md, Guest calls), under /api/guest. */
const guest: FastifyPluginAsync = async (app) => {
  await app.register(account);
  await app.register(profile);
  await app.register(mailLinks);
  await app.register(payments);
  await app.register(deletion);
  await app.register(dataExport);
  await app.register(sessionRoutes);
};

export default guest;

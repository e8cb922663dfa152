import { and, asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { authenticatedRequestSchema } from '../../../shared/api/envelope.ts';
import { featureImageDestroyRequestSchema, featureImageSchema } from '../../../shared/api/featureImage.ts';
import { featureImages, wardens } from '../../db/schema/index.ts';
import { ApiFailure, apiPost } from '../../lib/api.ts';

/**
 * The signed-in guest's approved scenes (docs/api.md, "Approved scenes"),
 * under /api/featureImage: the list, and removing one. Each acts only on
 * the authenticated guest's rows; another guest's id fails as an unknown
 * id does. A removal is sent to the guest's devices on the relay at once,
 * so a device in a live jail stops treating that scene as whitelisted.
 */
const featureImage: FastifyPluginAsync = async (app) => {
  apiPost(app, '/read', {
    access: 'guest',
    body: authenticatedRequestSchema,
    payload: { featureImages: z.array(featureImageSchema) },
    async handler(_body, { guest }) {
      const rows = await app.db
        .select({ id: featureImages.id, data: featureImages.data, createdAt: featureImages.createdAt, wardenTitle: wardens.title })
        .from(featureImages)
        .leftJoin(wardens, eq(wardens.id, featureImages.wardenId))
        .where(eq(featureImages.guestId, guest.id))
        .orderBy(asc(featureImages.createdAt), asc(featureImages.id));
      return { featureImages: rows };
    },
  });

  apiPost(app, '/destroy', {
    access: 'guest',
    body: featureImageDestroyRequestSchema,
    payload: { featureImage: z.object({ id: z.number().int() }) },
    async handler({ featureImage: { id } }, { guest }) {
      const [removed] = await app.db
        .delete(featureImages)
        .where(and(eq(featureImages.id, id), eq(featureImages.guestId, guest.id)))
        .returning({ id: featureImages.id });
      if (removed === undefined) throw new ApiFailure('feature_image_not_found');
      await app.jailEngine.sendFeatureImages(guest.id);
      return { featureImage: removed };
    },
  });
};

export default featureImage;

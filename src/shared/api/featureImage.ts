import { z } from 'zod';
import { apiRequestSchema, guestCredentialsSchema, idSchema } from './envelope.ts';

/**
 * The approved scenes of the signed-in guest (docs/api.md, "Approved
 * scenes"): patrol images a warden approved during a jail, which the
 * guest's device treats as whitelisted.
 */

/** An approved scene as `/featureImage/read` gives it. */
export const featureImageSchema = z.object({
  id: z.number().int(),
  /** A JPEG data URL. */
  data: z.string(),
  /** When the warden approved it (epoch ms). */
  createdAt: z.number(),
  /** The approving warden's name; null once that warden is gone. */
  wardenTitle: z.string().nullable(),
});
export type FeatureImage = z.infer<typeof featureImageSchema>;

/** `/featureImage/destroy`: the scene by id. */
export const featureImageDestroyRequestSchema = z.object({
  api: apiRequestSchema,
  guest: guestCredentialsSchema,
  featureImage: z.object({ id: idSchema }),
});

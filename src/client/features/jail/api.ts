import { api } from '../../app/api.ts';

/**
 * The live screen's server state that the relay, not a call, brings: the
 * approved scenes' images that the camera's worker treats as whitelisted
 * (`feature_images_to_guest`, sent at the start of a jail and whenever a
 * warden approves one). No call reads it: the entry starts empty and the relay
 * event writes it (useGuestRelay.ts); it leaves the cache with the session.
 */
export const jailApi = api.injectEndpoints({
  endpoints: (build) => ({
    featureImageWhitelist: build.query<string[], void>({
      queryFn: () => ({ data: [] }),
    }),
  }),
});

/** The relay's `feature_images_to_guest`: the whitelist becomes these images (data URLs). */
export function featureImagesReceived(images: readonly { id: number; data: string }[]) {
  return jailApi.util.upsertQueryData(
    'featureImageWhitelist',
    undefined,
    images.map((image) => image.data),
  );
}

export const { useFeatureImageWhitelistQuery } = jailApi;

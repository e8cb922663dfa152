import type { FeatureImage } from '../../../shared/api/featureImage.ts';
import { api } from '../../app/api.ts';

/** The approved-scene calls (docs/api.md, "Approved scenes"). */
export const filtersApi = api.enhanceEndpoints({ addTagTypes: ['FeatureImage'] }).injectEndpoints({
  endpoints: (build) => ({
    featureImageRead: build.query<{ featureImages: FeatureImage[] }, void>({
      query: () => ({ path: '/featureImage/read', body: {}, auth: true }),
      providesTags: ['FeatureImage'],
    }),
    featureImageDestroy: build.mutation<{ featureImage: { id: number } }, { id: number }>({
      query: ({ id }) => ({ path: '/featureImage/destroy', body: { featureImage: { id } }, auth: true }),
      invalidatesTags: ['FeatureImage'],
    }),
  }),
});

export const { useFeatureImageReadQuery, useFeatureImageDestroyMutation } = filtersApi;

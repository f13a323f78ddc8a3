import { searchRoutes } from '../http/routes/search.ts';
import { defineCapability } from './capability.ts';

/** Retrieval itself (recalls, fusion, rerank, threshold, answerability) is src/app/retrieval/, built once by the composition root. */
export const search = defineCapability({
  name: 'search',
  summary: "A knowledge base's retrieval, from the recalls to the results.",
  routes: ({ services }) => searchRoutes(services.search),
});

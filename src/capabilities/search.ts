/** Search: a knowledge base's retrieval, from the recalls to the results (see documents.ts for why an index). */
export { SearchBody, SearchResponse } from '../../schemas/http/search.ts';
export { fuseByReciprocalRank } from '../domain/retrieval/fusion.ts';
export { createRetrieval } from '../app/retrieval/retrieval.ts';
export { createSearchService } from '../app/services/search.ts';
export { searchRoutes } from '../http/routes/search.ts';

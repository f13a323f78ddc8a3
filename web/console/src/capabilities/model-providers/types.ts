import type { Answer, RequestBody } from '../../api/client.ts';

export type Model = Answer<'/v1/models', 'get'>['data'][number];
export type Provider = Answer<'/v1/model-providers', 'get'>['data'][number];
export type ProviderModel = Provider['models'][number];
export type ProviderBody = RequestBody<'/v1/model-providers', 'post'>;
export type ConnectionCheck = Answer<'/v1/model-providers/{provider_id}/test', 'post'>;
export const PROVIDER_MODEL_TYPES = ['chat', 'embedding', 'rerank'] as const satisfies readonly ProviderModel['type'][];

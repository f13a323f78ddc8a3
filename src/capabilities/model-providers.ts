import { modelProviderEvents, modelProviderNameEvents } from '../../schemas/events/model-provider.ts';
import { modelProvidersProjection } from '../../projections/model-providers/index.ts';
import { modelProviderDecider } from '../domain/model-provider/model-provider.ts';
import { providerNameDecider } from '../domain/model-provider/provider-name.ts';
import { modelProviderRoutes } from '../http/routes/model-providers.ts';
import { defineCapability } from './capability.ts';

export const modelProviders = defineCapability({
  name: 'model-providers',
  summary: 'A workspace’s own OpenAI-compatible model providers (OpenAI, Ollama, vLLM …), their keys kept encrypted.',
  events: { ...modelProviderEvents, ...modelProviderNameEvents },
  deciders: [modelProviderDecider, providerNameDecider],
  projections: [modelProvidersProjection],
  routes: ({ services }) => modelProviderRoutes(services.modelProviders),
});

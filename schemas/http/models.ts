import { z } from 'zod';

export const Model = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.int(),
  owned_by: z.string().describe('`kbqa` for the offline models, `deployment` for the providers the environment configures, a workspace provider’s name for its models, `agent` for a published agent (`agt_…`).'),
  type: z.enum(['chat', 'embedding', 'rerank', 'agent']),
});

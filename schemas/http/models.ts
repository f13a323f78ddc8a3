import { z } from 'zod';

export const Model = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.int(),
  owned_by: z.string(),
});

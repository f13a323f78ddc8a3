import { z } from 'zod';
import { ApiKeyScope } from '../events/api-key.ts';

/** `POST /console/session`: the key the console signs in with (checked as a bearer key is, never stored). */
export const ConsoleSignInBody = z.strictObject({ api_key: z.string().min(1).max(512) });

/** `GET /console/session`: who the console is signed in as, for it to hide what the key may not do. */
export const ConsoleSession = z.object({
  object: z.literal('console.session'),
  workspace_id: z.string(),
  key_id: z.string(),
  scopes: z.array(ApiKeyScope),
  knowledge_base_ids: z.array(z.string()).nullable().describe('The knowledge bases the key is limited to; null: all of the workspace’s'),
  expires_at: z.iso.datetime().describe('When the session ends (12 hours after sign-in), whatever is done meanwhile; the key’s own expiry or revocation ends it sooner'),
});

import { workspaceEvents } from '../../schemas/events/workspace.ts';
import { workspacesProjection } from '../../projections/workspaces/index.ts';
import { workspaceDecider } from '../domain/workspace/workspace.ts';
import { defineCapability } from './capability.ts';

/** Made at start (KBQA_ADMIN_KEY, or the first start's key) and by `kbqa`: no routes. */
export const workspaces = defineCapability({
  name: 'workspaces',
  summary: 'Workspaces: what holds keys, knowledge bases and everything in them.',
  events: workspaceEvents,
  deciders: [workspaceDecider],
  projections: [workspacesProjection],
});

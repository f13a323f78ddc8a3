import { z } from 'zod';
import { render } from '../templates.ts';
import { defineNodeType, lookup, template } from './node-type.ts';

export const DirectReplyConfig = z.strictObject({ template });
export type DirectReplyConfig = z.infer<typeof DirectReplyConfig>;

/** The run's answer: every graph must reach one of these. */
export const directReply = defineNodeType({
  type: 'direct_reply',
  instant: true,
  config: DirectReplyConfig,
  outputs: () => ['answer'],
  templates: ['template'],
  runOutputs: { answer: 'answer' },
  run: ({ config, scope }) => ({ answer: render(config.template, lookup(scope)) }),
});

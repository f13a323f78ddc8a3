import { z } from 'zod';
import { MAX_NODE_OUTPUT_BYTES } from '../limits.ts';
import { RenderTooLarge, renderWithin } from '../templates.ts';
import { defineNodeType, lookup, NodeFailure, template as templateText } from './node-type.ts';

export const TemplateConfig = z.strictObject({ template: templateText });
export type TemplateConfig = z.infer<typeof TemplateConfig>;

/** Text built from earlier outputs, for later nodes to quote. */
export const template = defineNodeType({
  type: 'template',
  instant: true,
  config: TemplateConfig,
  outputs: () => ['output'],
  templates: ['template'],
  run: ({ config, scope }) => ({ output: bounded(config.template, scope) }),
});

/** The text, stopped at the node's output limit rather than built whole first (templates doubling through a lattice held 3.6 GB). */
function bounded(text: string, scope: Parameters<typeof lookup>[0]): string {
  try {
    return renderWithin(text, lookup(scope), MAX_NODE_OUTPUT_BYTES);
  } catch (error) {
    if (!(error instanceof RenderTooLarge)) throw error;
    throw new NodeFailure('output_too_large', `the template rendered to more than ${MAX_NODE_OUTPUT_BYTES} characters; a node's outputs may be at most ${MAX_NODE_OUTPUT_BYTES} bytes as JSON`);
  }
}

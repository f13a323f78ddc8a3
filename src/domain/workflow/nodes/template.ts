import { z } from 'zod';
import { render } from '../templates.ts';
import { defineNodeType, lookup, template as templateText } from './node-type.ts';

export const TemplateConfig = z.strictObject({ template: templateText });
export type TemplateConfig = z.infer<typeof TemplateConfig>;

/** Text built from earlier outputs, for later nodes to quote. */
export const template = defineNodeType({
  type: 'template',
  instant: true,
  config: TemplateConfig,
  outputs: () => ['output'],
  templates: ['template'],
  run: ({ config, scope }) => ({ output: render(config.template, lookup(scope)) }),
});

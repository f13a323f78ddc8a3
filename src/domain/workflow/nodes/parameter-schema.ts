import { z } from 'zod';

/** Property names become `{{node.name}}` fields beside `data` and `missing`, so they are identifiers and not those two. */
const propertyName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be an identifier: letters, digits and _, not starting with a digit')
  .refine((name) => name !== 'data' && name !== 'missing', 'data and missing are the node’s own outputs');

export const ParameterProperty = z
  .strictObject({
    type: z.enum(['string', 'number', 'integer', 'boolean']),
    description: z.string().max(1000).optional(),
    /** The allowed values; matched in the text case-insensitively. */
    enum: z.array(z.union([z.string().min(1).max(200), z.number()])).min(1).max(100).optional(),
    format: z.enum(['date', 'email']).optional(),
  })
  .superRefine((property, ctx) => {
    if (property.format !== undefined && property.type !== 'string') {
      ctx.addIssue({ code: 'custom', path: ['format'], message: `applies to type string, not ${property.type}` });
    }
  });
export type ParameterProperty = z.infer<typeof ParameterProperty>;

/** The JSON Schema subset a parameter extractor fills: a flat object of scalar properties. */
export const ParameterSchema = z
  .strictObject({
    type: z.literal('object'),
    description: z.string().max(1000).optional(),
    properties: z.record(propertyName, ParameterProperty),
    required: z.array(z.string()).max(50).optional(),
  })
  .superRefine((schema, ctx) => {
    const names = Object.keys(schema.properties);
    if (names.length === 0 || names.length > 50) ctx.addIssue({ code: 'custom', path: ['properties'], message: 'must declare between 1 and 50 properties' });
    (schema.required ?? []).forEach((name, i) => {
      if (!names.includes(name)) ctx.addIssue({ code: 'custom', path: ['required', i], message: `'${name}' is not a property of the schema` });
    });
  });
export type ParameterSchema = z.infer<typeof ParameterSchema>;

/** The value a property may hold, or undefined: what a model answered is checked by this before it is kept. */
export function conforming(property: ParameterProperty, value: unknown): string | number | boolean | undefined {
  if (value === null || value === undefined) return undefined;
  if (property.enum) {
    const found = property.enum.find((allowed) => String(allowed).toLowerCase() === String(value).toLowerCase());
    return found;
  }
  switch (property.type) {
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'string':
      if (typeof value !== 'string' || value.trim() === '') return undefined;
      if (property.format === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return undefined;
      if (property.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
      return value;
  }
}

import test from 'ava';
import type { z } from 'zod';
import { NODE_TYPES as SERVER_TYPES } from '../../src/domain/workflow/nodes/index.ts';
import type { AnyNodeType } from '../../src/domain/workflow/nodes/index.ts';
import { inSentence, NODE_TEXT } from '../../web/console/src/capabilities/workflows/canvas/node-text.ts';

// The canvas shows people words, not ids: a node type or config field the server gains must get a
// name, a label and a help line in both of the console's languages, and an enumeration a label per choice.
const server = SERVER_TYPES as unknown as Record<string, AnyNodeType>;
const shapeOf = (type: AnyNodeType) => (type.config as unknown as { shape: Record<string, z.ZodType> }).shape;

/** The values of an enumeration field (under optional/default), or none. */
function choicesOf(schema: z.ZodType): string[] {
  let inner = schema as unknown as { def: { type: string; innerType?: unknown; entries?: Record<string, string> } };
  while (inner.def.innerType && (inner.def.type === 'optional' || inner.def.type === 'default')) inner = inner.def.innerType as typeof inner;
  return inner.def.type === 'enum' ? Object.values(inner.def.entries ?? {}) : [];
}

for (const [language, catalogue] of Object.entries(NODE_TEXT)) {
  test(`${language}: every node type has a name, every config field a label and a help line, every choice a label`, (t) => {
    const text = catalogue as Record<string, { name: string; fields: Record<string, { label: string; help: string; choices?: Record<string, string> }> }>;
    for (const [type, descriptor] of Object.entries(server)) {
      t.truthy(text[type]?.name.trim(), `${language}: ${type} has no name`);
      t.not(text[type]?.name, type, `${language}: ${type}'s name is its id`);
      for (const [field, schema] of Object.entries(shapeOf(descriptor))) {
        const words = text[type]?.fields[field];
        t.truthy(words?.label.trim(), `${language}: ${type}.${field} has no label`);
        t.truthy(words?.help.trim(), `${language}: ${type}.${field} has no help`);
        for (const choice of choicesOf(schema)) t.truthy(words?.choices?.[choice]?.trim(), `${language}: ${type}.${field} = ${choice} has no label`);
      }
      t.deepEqual(Object.keys(text[type]?.fields ?? {}).sort(), Object.keys(shapeOf(descriptor)).sort(), `${language}: ${type} words fields it does not have`);
    }
    t.deepEqual(Object.keys(text).sort(), Object.keys(server).sort(), `${language}: words for a type the server does not have`);
  });
}

test('a name inside a sentence: lowercased, unless its first word has capitals of its own; in Chinese a Latin word spaced', (t) => {
  t.is(inSentence('Knowledge retrieval', 'en'), 'knowledge retrieval');
  t.is(inSentence('HTTP request', 'en'), 'HTTP request');
  t.is(inSentence('JavaScript code', 'en'), 'JavaScript code');
  t.is(inSentence('知识检索', 'zh-CN'), '知识检索');
  t.is(inSentence('HTTP 请求', 'zh-CN'), ' HTTP 请求', 'spaced from the Chinese before it');
});

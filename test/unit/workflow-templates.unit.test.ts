import test from 'ava';
import { referencesIn, render } from '../../src/domain/workflow/templates.ts';

test('referencesIn finds every reference, spaces allowed, in order', (t) => {
  t.deepEqual(referencesIn('Q: {{start.question}} / {{ retrieve.context }} / {{start.question}}'), [
    { nodeId: 'start', field: 'question', raw: '{{start.question}}' },
    { nodeId: 'retrieve', field: 'context', raw: '{{ retrieve.context }}' },
    { nodeId: 'start', field: 'question', raw: '{{start.question}}' },
  ]);
});

test('referencesIn leaves malformed braces as literal text', (t) => {
  for (const text of ['{{', '{{start.question', '{{ question }}', '{{Start.question}}', '{{start.}}', '{{.x}}', '{ {a.b} }', '{{a.b.c}}', '{{1a.b}}']) {
    t.deepEqual(referencesIn(text), [], text);
  }
});

test('referencesIn finds a reference right after an unclosed {{', (t) => {
  t.deepEqual(referencesIn('{{ oops {{a.b}}'), [{ nodeId: 'a', field: 'b', raw: '{{a.b}}' }]);
});

test('render substitutes values by their type', (t) => {
  const values: Record<string, Record<string, unknown>> = {
    n: { s: 'text', i: 42, f: 0.5, t: true, o: { a: [1, 'x'] }, a: [1, 2], nul: null },
  };
  const lookup = (node: string, field: string) => values[node]?.[field];
  t.is(render('{{n.s}}|{{ n.i }}|{{n.f}}|{{n.t}}', lookup), 'text|42|0.5|true');
  t.is(render('{{n.o}} {{n.a}}', lookup), '{"a":[1,"x"]} [1,2]');
  t.is(render('[{{n.missing}}][{{other.x}}][{{n.nul}}]', lookup), '[][][]');
});

test('render keeps literal braces and does not re-render substituted text', (t) => {
  const lookup = (_node: string, field: string) => (field === 'x' ? '{{a.y}}' : 'Y');
  t.is(render('{{ not a ref }} {{a.x}} {{', lookup), '{{ not a ref }} {{a.y}} {{');
});

test('render passes the node id and field to the lookup', (t) => {
  const seen: string[] = [];
  render('{{ a_1.Field_2 }}', (node, field) => seen.push(`${node}/${field}`));
  t.deepEqual(seen, ['a_1/Field_2']);
});

import test from 'ava';
import type { StartConfig } from '../../src/domain/workflow/nodes/start.ts';
import { validateInputs } from '../../src/domain/workflow/inputs.ts';

const config: StartConfig = {
  inputs: [
    { name: 'question', type: 'string', required: true },
    { name: 'limit', type: 'number', required: false },
    { name: 'strict', type: 'boolean', required: false },
    { name: 'filters', type: 'object', required: false },
  ],
};

test('valid inputs come back as values; absent optional ones are left out', (t) => {
  t.deepEqual(validateInputs(config, { question: 'Why?', limit: 3, strict: false, filters: { a: 1 } }), {
    ok: true,
    values: { question: 'Why?', limit: 3, strict: false, filters: { a: 1 } },
  });
  t.deepEqual(validateInputs(config, { question: '', limit: null }), { ok: true, values: { question: '' } });
});

test('a missing required input is named', (t) => {
  const result = validateInputs(config, { limit: 1 });
  t.like(result, { ok: false, param: 'inputs.question' });
  t.like(validateInputs(config, { question: null }), { ok: false, param: 'inputs.question' });
  t.like(validateInputs(config, undefined), { ok: false, param: 'inputs.question' });
});

test('wrong types are named', (t) => {
  const cases: [Record<string, unknown>, string][] = [
    [{ question: 1 }, 'inputs.question'],
    [{ question: 'q', limit: '3' }, 'inputs.limit'],
    [{ question: 'q', limit: Number.NaN }, 'inputs.limit'],
    [{ question: 'q', limit: Number.POSITIVE_INFINITY }, 'inputs.limit'],
    [{ question: 'q', strict: 'true' }, 'inputs.strict'],
    [{ question: 'q', filters: [] }, 'inputs.filters'],
    [{ question: 'q', filters: new Date(0) }, 'inputs.filters'],
    [{ question: 'q', filters: 'x' }, 'inputs.filters'],
  ];
  for (const [inputs, param] of cases) t.like(validateInputs(config, inputs), { ok: false, param }, param);
});

test('an object input may have a null prototype', (t) => {
  const filters = Object.assign(Object.create(null) as object, { a: 1 });
  t.like(validateInputs(config, { question: 'q', filters }), { ok: true });
});

test('an unknown input is named, with the declared ones in the message', (t) => {
  const result = validateInputs(config, { question: 'q', qestion: 'typo' });
  t.like(result, { ok: false, param: 'inputs.qestion' });
  t.regex(result.ok ? '' : result.message, /question, limit, strict, filters/);
});

test('inputs that are not an object are rejected as a whole', (t) => {
  for (const inputs of [null, 'q', 1, ['q']]) t.like(validateInputs(config, inputs), { ok: false, param: 'inputs' });
});

test('an input named like an Object.prototype member is not inherited', (t) => {
  const odd: StartConfig = { inputs: [{ name: 'constructor', type: 'string', required: true }] };
  t.like(validateInputs(odd, {}), { ok: false, param: 'inputs.constructor' });
});

test('list inputs: array takes any JSON list, array[type] checks every item and names what it must be', (t) => {
  const lists: StartConfig = {
    inputs: [
      { name: 'anything', type: 'array', required: false },
      { name: 'words', type: 'array[string]', required: false },
      { name: 'counts', type: 'array[number]', required: false },
      { name: 'flags', type: 'array[boolean]', required: false },
      { name: 'rows', type: 'array[object]', required: false },
    ],
  };
  const given = { anything: [1, 'a', null], words: ['a', 'b'], counts: [1, 2.5], flags: [true], rows: [{ a: 1 }, {}] };
  t.deepEqual(validateInputs(lists, given), { ok: true, values: given });
  t.deepEqual(validateInputs(lists, { words: [] }), { ok: true, values: { words: [] } });
  const wrong: [Record<string, unknown>, string, RegExp][] = [
    [{ anything: { 0: 'a' } }, 'inputs.anything', /must be an array$/],
    [{ words: 'a,b' }, 'inputs.words', /every item is a string/],
    [{ words: ['a', 2] }, 'inputs.words', /every item is a string/],
    [{ counts: [1, Number.NaN] }, 'inputs.counts', /every item is a finite number/],
    [{ flags: ['true'] }, 'inputs.flags', /every item is a boolean/],
    [{ rows: [[]] }, 'inputs.rows', /every item is an object/],
  ];
  for (const [inputs, param, message] of wrong) {
    const result = validateInputs(lists, inputs);
    t.like(result, { ok: false, param }, param);
    if (!result.ok) t.regex(result.message, message);
  }
});

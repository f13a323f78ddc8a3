import test from 'ava';
import { SearchBody } from '../../schemas/http/search.ts';
import { ChatCompletionBody } from '../../schemas/http/chat.ts';
import { conditionsAsFilter, matchesFilter, type MetadataFilter } from '../../src/domain/retrieval/metadata-filter.ts';
import { mergeRankings } from '../../src/domain/retrieval/merge.ts';
import { ApiError } from '../../src/ports/api-error.ts';
import { parseOr400 } from '../../src/http/validate.ts';

const doc = { team: 'ops', year: 2024, score: 9.5, public: true, date: '2024-03-01' };
const matches = (filter: MetadataFilter, metadata: Record<string, string | number | boolean> = doc) => matchesFilter(filter, metadata);

test('eq and ne compare with the value’s type', (t) => {
  t.true(matches({ type: 'eq', key: 'team', value: 'ops' }));
  t.false(matches({ type: 'eq', key: 'team', value: 'Ops' }));
  t.false(matches({ type: 'eq', key: 'year', value: '2024' }), 'a string is not the number');
  t.true(matches({ type: 'eq', key: 'public', value: true }));
  t.false(matches({ type: 'ne', key: 'team', value: 'ops' }));
  t.true(matches({ type: 'ne', key: 'team', value: 'sales' }));
  t.true(matches({ type: 'ne', key: 'year', value: '2024' }));
});

test('gt, gte, lt, lte order numbers numerically and strings by code unit', (t) => {
  t.true(matches({ type: 'gt', key: 'year', value: 2023 }));
  t.false(matches({ type: 'gt', key: 'year', value: 2024 }));
  t.true(matches({ type: 'gte', key: 'year', value: 2024 }));
  t.true(matches({ type: 'lt', key: 'score', value: 10 }), '9.5 < 10 as numbers (as strings "9.5" > "10")');
  t.false(matches({ type: 'lt', key: 'score', value: 9.5 }));
  t.true(matches({ type: 'lte', key: 'score', value: 9.5 }));
  t.true(matches({ type: 'gte', key: 'date', value: '2024-01-01' }), 'ISO dates order as dates');
  t.false(matches({ type: 'lt', key: 'date', value: '2024-02-28' }));
  t.false(matches({ type: 'gt', key: 'year', value: '2000' }), 'a number and a string are not ordered');
  t.false(matches({ type: 'gt', key: 'public', value: 0 }), 'nor a boolean');
});

test('in and nin test membership of a list', (t) => {
  t.true(matches({ type: 'in', key: 'team', value: ['sales', 'ops'] }));
  t.false(matches({ type: 'in', key: 'team', value: ['sales', 'legal'] }));
  t.true(matches({ type: 'in', key: 'year', value: [2023, 2024] }));
  t.false(matches({ type: 'in', key: 'year', value: ['2024'] }));
  t.false(matches({ type: 'nin', key: 'team', value: ['ops'] }));
  t.true(matches({ type: 'nin', key: 'team', value: ['sales', 'legal'] }));
});

test('a missing key meets only ne and nin', (t) => {
  for (const type of ['eq', 'gt', 'gte', 'lt', 'lte'] as const) t.false(matches({ type, key: 'absent', value: 1 }), type);
  t.false(matches({ type: 'in', key: 'absent', value: [1] }));
  t.true(matches({ type: 'ne', key: 'absent', value: 1 }));
  t.true(matches({ type: 'nin', key: 'absent', value: [1] }));
  t.false(matches({ type: 'eq', key: 'toString', value: 'x' }), 'inherited properties are not metadata');
});

test('and, or nest', (t) => {
  const recentOpsOrSales: MetadataFilter = {
    type: 'and',
    filters: [
      { type: 'gte', key: 'year', value: 2024 },
      { type: 'or', filters: [{ type: 'eq', key: 'team', value: 'sales' }, { type: 'and', filters: [{ type: 'eq', key: 'team', value: 'ops' }, { type: 'eq', key: 'public', value: true }] }] },
    ],
  };
  t.true(matches(recentOpsOrSales));
  t.false(matches(recentOpsOrSales, { ...doc, public: false }));
  t.false(matches(recentOpsOrSales, { ...doc, year: 2023 }));
  t.true(matches(recentOpsOrSales, { ...doc, team: 'sales', public: false }));
  t.true(matches({ type: 'or', filters: [{ type: 'eq', key: 'team', value: 'x' }, { type: 'lt', key: 'year', value: 2030 }] }));
  t.false(matches({ type: 'or', filters: [{ type: 'eq', key: 'team', value: 'x' }, { type: 'gt', key: 'year', value: 2030 }] }));
});

test('the older syntax becomes eq, in and and', (t) => {
  t.is(conditionsAsFilter({}), undefined);
  t.deepEqual(conditionsAsFilter({ team: 'ops' }), { type: 'eq', key: 'team', value: 'ops' });
  t.deepEqual(conditionsAsFilter({ team: ['ops', 'sales'], year: 2024 }), {
    type: 'and',
    filters: [
      { type: 'in', key: 'team', value: ['ops', 'sales'] },
      { type: 'eq', key: 'year', value: 2024 },
    ],
  });
});

const param = (body: unknown, schema: typeof SearchBody | typeof ChatCompletionBody = SearchBody) => {
  try {
    parseOr400(schema, body);
    return 'accepted';
  } catch (error) {
    return error instanceof ApiError ? error.param : String(error);
  }
};

test('a bad filter is refused naming the path at fault', (t) => {
  const query = 'q';
  t.is(param({ query, filter: { type: 'and', filters: [{ type: 'eq', key: 'a', value: 1 }, { type: 'like', key: 'a', value: 1 }] } }), 'filter.filters.1.type');
  t.is(param({ query, filter: { type: 'or', filters: [{ type: 'in', key: 'a', value: 'x' }] } }), 'filter.filters.0.value');
  t.is(param({ query, filter: { type: 'eq', key: 'a', value: ['x'] } }), 'filter.value');
  t.is(param({ query, filter: { type: 'gt', key: 'a', value: true } }), 'filter.value');
  t.is(param({ query, filter: { type: 'eq', key: '', value: 1 } }), 'filter.key');
  t.is(param({ query, filter: { type: 'eq', value: 1 } }), 'filter.key');
  t.is(param({ query, filter: { type: 'and', filters: [] } }), 'filter.filters');
  t.is(param({ query, filter: { type: 'and', filters: [{ type: 'or', filters: [{ type: 'eq', key: 'k', value: 1, extra: 1 }] }] } }), 'filter.filters.0.filters.0.extra');
  t.is(param({ query, filter: { type: 'in', key: 'a', value: [] } }), 'filter.value');
  t.is(param({ query, filter: { metadata: { a: 1 }, oops: true } }), 'filter.oops');
});

test('good filters of both syntaxes are accepted', (t) => {
  t.is(param({ query: 'q', filter: { type: 'and', filters: [{ type: 'in', key: 'a', value: [1, 'x', true] }, { type: 'or', filters: [{ type: 'lte', key: 'd', value: '2024' }] }] } }), 'accepted');
  t.is(param({ query: 'q', filter: { document_ids: ['doc_1'], metadata: { team: ['a', 'b'] } } }), 'accepted');
});

test('chat takes knowledge_base_id or knowledge_base_ids, not both; a filter needs one', (t) => {
  const messages = [{ role: 'user', content: 'hi' }];
  const chat = (extra: object) => param({ model: 'm', messages, ...extra }, ChatCompletionBody);
  t.is(chat({ knowledge_base_ids: ['kb_a', 'kb_b'] }), 'accepted');
  t.is(chat({ knowledge_base_id: 'kb_a', knowledge_base_ids: ['kb_b'] }), 'knowledge_base_ids');
  t.is(chat({ knowledge_base_ids: [] }), 'knowledge_base_ids');
  t.is(chat({ knowledge_base_ids: ['kb_a', 'kb_a'] }), 'knowledge_base_ids');
  t.is(chat({ filter: { type: 'eq', key: 'a', value: 1 } }), 'filter');
  t.is(chat({ knowledge_base_id: 'kb_a', filter: { type: 'eq', key: 'a', value: 1 } }), 'accepted');
});

test('rankings of several knowledge bases merge by score when scores compare, else by rank', (t) => {
  const a = [{ id: 'a1', score: 0.9 }, { id: 'a2', score: 0.8 }, { id: 'a3', score: 0.7 }];
  const b = [{ id: 'b1', score: 0.95 }, { id: 'b2', score: 0.2 }];
  const ids = (hits: { id: string }[]) => hits.map((h) => h.id);
  t.deepEqual(ids(mergeRankings([a, b], true)), ['b1', 'a1', 'a2', 'a3', 'b2']);
  t.deepEqual(ids(mergeRankings([a, b], false)), ['b1', 'a1', 'a2', 'b2', 'a3'], 'by rank, a tie going to the higher score');
  t.deepEqual(ids(mergeRankings([a], true)), ['a1', 'a2', 'a3']);
  t.deepEqual(ids(mergeRankings([[], b], false)), ['b1', 'b2']);
  const tied = [{ id: 'x2', score: 0.5 }, { id: 'x1', score: 0.5 }];
  t.deepEqual(ids(mergeRankings([tied, [{ id: 'y', score: 0.5 }]], true)), ['x2', 'y', 'x1'], 'equal scores keep each list’s order, rank first');
});

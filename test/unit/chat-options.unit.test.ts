import test from 'ava';
import { contractChangingOption } from '../../src/domain/chat/options.ts';

const tool = { type: 'function', function: { name: 'f' } };

test('what changes the answer’s contract is named: tools, a forced call, JSON output', (t) => {
  t.is(contractChangingOption({ tools: [tool] }), 'tools');
  t.is(contractChangingOption({ functions: [{ name: 'f' }] }), 'functions');
  t.is(contractChangingOption({ tool_choice: 'required' }), 'tool_choice');
  t.is(contractChangingOption({ tool_choice: { type: 'function', function: { name: 'f' } } }), 'tool_choice');
  t.is(contractChangingOption({ function_call: { name: 'f' } }), 'function_call');
  t.is(contractChangingOption({ response_format: { type: 'json_schema', json_schema: { name: 'x' } } }), 'response_format');
  t.is(contractChangingOption({ response_format: { type: 'json_object' } }), 'response_format');
});

test('what only shapes generation, or asks for nothing, passes', (t) => {
  t.is(contractChangingOption({}), null);
  t.is(contractChangingOption({ tools: [], tool_choice: 'none', function_call: 'auto', response_format: { type: 'text' } }), null);
  t.is(contractChangingOption({ logprobs: true, top_logprobs: 3, seed: 1, stop: ['x'], parallel_tool_calls: true, reasoning_effort: 'low', service_tier: 'auto' }), null);
});

import type { NodeServices } from '../../src/domain/workflow/nodes/node-type.ts';

const unused = (name: string) => () => Promise.reject(new Error(`${name} is not used by this test`));

/** A node's services where none is expected to be called: a test overrides the ones its node uses. */
export const nodeServices = (overrides: Partial<NodeServices> = {}): NodeServices => ({
  retrieve: async () => undefined,
  chatModel: async () => undefined,
  similarity: unused('similarity'),
  runSubgraph: unused('runSubgraph'),
  runCode: unused('runCode'),
  httpRequest: unused('httpRequest'),
  ...overrides,
});

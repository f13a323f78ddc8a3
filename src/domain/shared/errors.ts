/** Rule violations the deciders report; the HTTP layer maps each kind to one status. */
export class DomainError extends Error {
  override readonly name: string = 'DomainError';
  constructor(
    readonly kind: 'not_found' | 'conflict' | 'invalid' | 'gone',
    readonly code: string,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

export const notFound = (code: string, message: string) => new DomainError('not_found', code, message);
export const conflict = (code: string, message: string) => new DomainError('conflict', code, message);
export const invalid = (code: string, message: string, param: string | null = null) =>
  new DomainError('invalid', code, message, param);

const NOUNS = {
  knowledge_base: 'knowledge base',
  document: 'document',
  api_key: 'API key',
  workflow: 'workflow',
  workflow_run: 'workflow run',
  model: 'model',
  file: 'file',
  conversation: 'conversation',
  chat_completion: 'chat completion',
} as const;

export type ResourceKind = keyof typeof NOUNS;

/** One wording for "not here" on every route, in every decider and node: clients may match on it. */
export const notFoundMessage = (kind: ResourceKind, id: string) => `No ${NOUNS[kind]} found with id '${id}'.`;

/** One wording for a model id that names no model of the wanted kind here. */
export const notAModelMessage = (id: string, kind: 'chat' | 'embedding' | 'rerank') =>
  `'${id}' is not a${kind === 'embedding' ? 'n' : ''} ${kind} model of this deployment (see GET /v1/models).`;

export const missing = (kind: ResourceKind, id: string) => notFound(`${kind}_not_found`, notFoundMessage(kind, id));

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

/** The nouns that are not simply the kind with its underscores as spaces: a new kind needs no entry. */
const NOUNS: Readonly<Record<string, string>> = { api_key: 'API key' };

/** What can be not found: a resource's kind in snake_case (`knowledge_base`, `workflow_run`, …). */
export type ResourceKind = string;

/** One wording for "not here" on every route, in every decider and node: clients may match on it. */
export const notFoundMessage = (kind: ResourceKind, id: string) => `No ${NOUNS[kind] ?? kind.replaceAll('_', ' ')} found with id '${id}'.`;

/** One wording for a model id that names no model of the wanted kind here. */
export const notAModelMessage = (id: string, kind: 'chat' | 'embedding' | 'rerank') =>
  `'${id}' is not a${kind === 'embedding' ? 'n' : ''} ${kind} model of this deployment or of your workspace's model providers (see GET /v1/models).`;

export const missing = (kind: ResourceKind, id: string) => notFound(`${kind}_not_found`, notFoundMessage(kind, id));

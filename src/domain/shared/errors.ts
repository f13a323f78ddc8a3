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

import { createHash } from 'node:crypto';

/** A table-name-safe token for a namespace (knowledge base ids are not trusted to be identifiers). */
export const namespaceToken = (namespace: string) => createHash('sha256').update(namespace).digest('hex').slice(0, 20);

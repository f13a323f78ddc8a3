import { type Principal, requireKnowledgeBasesAccess } from './principal.ts';

/**
 * Provenance: the knowledge bases whose text an object holds. Whatever is built from other items
 * (a response continuing another or quoting one by item_reference, a chat over a stored
 * conversation, the answers appended to a conversation, a workflow run's outputs) holds the text
 * of every knowledge base its sources held, beside those it searched itself. This is the one rule
 * for all of them, so that the next way of deriving cannot forget it:
 *   - an object's provenance is the union of what it searched and the provenance of each source
 *     (`provenanceOf`), recorded with the object;
 *   - a key reads, continues or rates the object only if it may read every knowledge base of that
 *     union (`requireProvenanceAccess`), the same 403 as naming such a knowledge base directly.
 */
export type Provenance = readonly string[];

/** The union of the sources' knowledge bases, in the order first met (what was searched first). */
export function provenanceOf(...sources: ReadonlyArray<Iterable<string> | null | undefined>): string[] {
  const union = new Set<string>();
  for (const source of sources) for (const id of source ?? []) union.add(id);
  return [...union];
}

/** The key may read everything the object was built from, or the request is refused; null (not known) is every knowledge base. */
export function requireProvenanceAccess(principal: Principal, provenance: Provenance | null): void {
  requireKnowledgeBasesAccess(principal, provenance);
}

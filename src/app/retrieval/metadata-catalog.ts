import type { DocumentDoc } from '../../../projections/documents/index.ts';
import type { RecordedEvent } from '../../ports/event-store.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';
import { matchesFilter, type MetadataFilter, type MetadataValue } from '../../domain/retrieval/metadata-filter.ts';

/** What turns a metadata filter into the documents that meet it, from a catalog of each knowledge base's documents. */
export type MetadataCatalog = {
  /** The knowledge base's ready documents whose metadata meets the filter, newest first. */
  documentIds(kbId: string, filter: MetadataFilter): Promise<readonly string[]>;
  /** What the projector applied (or, apart from it, what this process's log follower announced). */
  apply(batch: readonly RecordedEvent[]): void;
};

type Known = { ready: boolean; metadata: Record<string, MetadataValue> };
/**
 * A knowledge base's documents by id, ascending unless an upload arrived out of id order (`last`
 * is the greatest id seen), and the ids that recent filters matched, until a document changes.
 */
type Catalog = { documents: Map<string, Known>; last: string; sorted: boolean; answers: Map<string, readonly string[]> };

/** Distinct filters remembered per knowledge base (a client tends to repeat its few). */
const ANSWERS_PER_KNOWLEDGE_BASE = 32;
type Slot = { catalog: Catalog | null; pending: RecordedEvent[]; loaded: Promise<Catalog> };

/**
 * Metadata filters become document ids, the filter every index applies natively. Each knowledge
 * base a filter names is read once (every document's status and metadata) and then kept current
 * by the events this process sees projected, so a filter costs a scan of memory, not a read of
 * the knowledge base's documents. `live: false` (a process that sees no projected events) reads
 * them for each filter. The least recently filtered knowledge bases go first past `maxDocuments`.
 */
export function createMetadataCatalog(readModels: ReadModelStore, options: { live: boolean; maxDocuments?: number }): MetadataCatalog {
  const { live, maxDocuments = 500_000 } = options;
  const slots = new Map<string, Slot>();

  const load = async (kbId: string): Promise<Catalog> => {
    const docs = await readModels.find<DocumentDoc>('documents', { where: { knowledge_base_id: kbId }, order: 'asc' });
    const documents = new Map(docs.map((d) => [d.id, { ready: d.status === 'ready', metadata: d.metadata }]));
    return { documents, last: docs.at(-1)?.id ?? '', sorted: true, answers: new Map() };
  };

  const slotOf = (kbId: string): Slot => {
    const known = slots.get(kbId);
    if (known) {
      // Most recently used last.
      slots.delete(kbId);
      slots.set(kbId, known);
      return known;
    }
    const slot: Slot = {
      catalog: null,
      pending: [],
      loaded: load(kbId).then(
        (catalog) => {
          // Events projected while the read was under way may or may not be in it: applying them again is harmless.
          for (const event of slot.pending.splice(0)) change(catalog, event);
          slot.catalog = catalog;
          return catalog;
        },
        (error: unknown) => {
          if (slots.get(kbId) === slot) slots.delete(kbId);
          throw error;
        },
      ),
    };
    slots.set(kbId, slot);
    return slot;
  };

  /** Least recently used first, never the one just used, nor one still loading (its caller wants it current). */
  const evict = (using: string) => {
    let total = 0;
    for (const slot of slots.values()) total += slot.catalog?.documents.size ?? 0;
    for (const [kbId, slot] of slots) {
      if (total <= maxDocuments) break;
      if (kbId === using || !slot.catalog) continue;
      total -= slot.catalog.documents.size;
      slots.delete(kbId);
    }
  };

  return {
    async documentIds(kbId, filter) {
      const catalog = live ? await slotOf(kbId).loaded : await load(kbId);
      evict(kbId);
      const key = JSON.stringify(filter);
      let ids = catalog.answers.get(key);
      if (!ids) {
        ids = scan(catalog, filter);
        if (catalog.answers.size >= ANSWERS_PER_KNOWLEDGE_BASE) catalog.answers.clear();
        catalog.answers.set(key, ids);
      }
      return ids;
    },
    apply(batch) {
      for (const event of batch) {
        const kbId = 'knowledge_base_id' in event.data ? event.data.knowledge_base_id : undefined;
        const slot = typeof kbId === 'string' ? slots.get(kbId) : undefined;
        if (!slot || typeof kbId !== 'string') continue;
        if (event.type === 'KnowledgeBaseDeleted') slots.delete(kbId);
        else if (slot.catalog) change(slot.catalog, event);
        else slot.pending.push(event);
      }
    },
  };
}

/** The ready documents that meet the filter, newest first. */
function scan(catalog: Catalog, filter: MetadataFilter): string[] {
  if (!catalog.sorted) {
    catalog.documents = new Map([...catalog.documents].sort(([a], [b]) => (a < b ? -1 : 1)));
    catalog.sorted = true;
  }
  const ids: string[] = [];
  for (const [id, { ready, metadata }] of catalog.documents) {
    if (ready && matchesFilter(filter, metadata)) ids.push(id);
  }
  return ids.reverse();
}

/**
 * The documents projection's status, reduced to ready or not; replaying events converges to the
 * same. Remembered answers go when a document joins or leaves the ready ones.
 */
function change(catalog: Catalog, event: RecordedEvent) {
  const { documents } = catalog;
  // Every event this reads names a document; the switch narrows each to its own data.
  const documentId = 'document_id' in event.data ? event.data.document_id : undefined;
  if (typeof documentId !== 'string') return;
  const known = documents.get(documentId);
  const readiness = (ready: boolean) => {
    if (!known || known.ready === ready) return;
    known.ready = ready;
    catalog.answers.clear();
  };
  switch (event.type) {
    case 'DocumentUploaded':
      if (known) return;
      if (documentId < catalog.last) catalog.sorted = false;
      else catalog.last = documentId;
      documents.set(documentId, { ready: false, metadata: event.data.metadata ?? {} });
      return;
    case 'DocumentIndexed':
      return readiness(true);
    case 'DocumentMetadataUpdated':
      if (!known) return;
      known.metadata = event.data.metadata ?? {};
      catalog.answers.clear();
      return;
    case 'DocumentParsingStarted':
    case 'DocumentParsed':
    case 'DocumentFailed':
      return readiness(false);
    case 'DocumentDeleted':
      readiness(false);
      documents.delete(documentId);
      return;
  }
}

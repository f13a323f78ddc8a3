import type { DocumentRow } from './rows.ts';

/**
 * Uploads the API refused (an unsupported type, too large, …): the API records no document for
 * them, so the console keeps them, per knowledge base, in sessionStorage: listed with their reason
 * until deleted from the list or the tab is closed, a reload included.
 */
type Refused = { id: string; name: string; error: { stage: string; code: string; message: string } };

const keyFor = (kbId: string) => `kbqa.refused-uploads.${kbId}`;

function read(kbId: string): Refused[] {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(keyFor(kbId)) ?? '[]') as unknown;
    return Array.isArray(parsed) ? (parsed as Refused[]) : [];
  } catch {
    return [];
  }
}

export function refusedRows(kbId: string): DocumentRow[] {
  return read(kbId).map((r) => ({ id: r.id, name: r.name, status: 'failed', error: r.error, stored: false }));
}

export function rememberRefused(kbId: string, row: Refused) {
  sessionStorage.setItem(keyFor(kbId), JSON.stringify([...read(kbId).filter((r) => r.id !== row.id), row]));
}

export function forgetRefused(kbId: string, id: string) {
  sessionStorage.setItem(keyFor(kbId), JSON.stringify(read(kbId).filter((r) => r.id !== id)));
}

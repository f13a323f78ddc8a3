import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';

/** A file on disk, ready for `documents.upload` (Node only; the server decides the type from the bytes). */
export async function fileFromPath(path: string, name = basename(path)): Promise<{ name: string; data: Uint8Array }> {
  return { name, data: new Uint8Array(await readFile(path)) };
}

import type { Readable } from 'node:stream';
import type { Archive, ArchiveEntry } from './zip-archive.ts';
import { type ParseLimits, ParseFailure } from '../types.ts';

/** Deflate rarely beats 100:1 on real XML; a part this compressible and this large is a bomb. */
const MAX_RATIO = 200;
const RATIO_APPLIES_ABOVE = 1024 * 1024;

/**
 * Runs on the central directory before anything is inflated: the declared sizes are binding
 * because yauzl refuses an entry that inflates to more than it declared.
 */
export function assertArchiveSafe(entries: ArchiveEntry[], limits: ParseLimits): void {
  if (entries.some((e) => e.encrypted)) throw new ParseFailure('encrypted', 'The archive is password-protected.');
  const total = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (total > limits.maxUncompressedBytes) {
    throw new ParseFailure('too_large', `The archive would unpack to ${mib(total)} MiB; the limit is ${mib(limits.maxUncompressedBytes)} MiB.`);
  }
  const bomb = entries.find((e) => e.uncompressedSize > RATIO_APPLIES_ABOVE && e.uncompressedSize > MAX_RATIO * Math.max(e.compressedSize, 1));
  if (bomb) {
    throw new ParseFailure('too_large', `The part ${bomb.name} would unpack to ${mib(bomb.uncompressedSize)} MiB from ${bomb.compressedSize} bytes (a zip bomb).`);
  }
}

/** Parts that an XML parser will read: the only places a DTD could hide. */
export const isXmlPart = (name: string) => /\.(xml|rels|vml)$/i.test(name);

const DTD = /<!(DOCTYPE|ENTITY)/i;

/**
 * OOXML never needs a DTD; one in a part can only be an entity-expansion attack (billion laughs)
 * or an external-entity probe, so the document is refused before any XML parser sees it.
 */
export function assertNoDtd(bytes: Uint8Array, name: string): void {
  if (DTD.test(latin1(bytes))) throw unsafe(name);
}

/** An archive's part, DTD-checked before any XML parser may read it; undefined when the archive has none. */
export async function checkedPart(archive: Archive, name: string): Promise<Buffer | undefined> {
  if (!archive.has(name)) return undefined;
  const bytes = await archive.read(name);
  assertNoDtd(bytes, name);
  return bytes;
}

/** The same check on a stream, chunk by chunk, so a huge part is never held in memory. */
export async function assertStreamHasNoDtd(stream: Readable, name: string): Promise<void> {
  let tail = '';
  for await (const chunk of stream) {
    const text = tail + latin1(chunk as Buffer);
    if (DTD.test(text)) {
      stream.destroy();
      throw unsafe(name);
    }
    tail = text.slice(-16);
  }
}

export async function assertXmlPartsHaveNoDtd(archive: Archive): Promise<void> {
  for (const entry of archive.entries) {
    if (isXmlPart(entry.name) && entry.uncompressedSize > 0) await assertStreamHasNoDtd(await archive.stream(entry.name), entry.name);
  }
}

/** UTF-16 parts put a NUL beside every ASCII byte; dropping NULs lets one pattern match both encodings. */
function latin1(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return text.includes('\0') ? text.replace(/\0/g, '') : text;
}

const unsafe = (name: string) => new ParseFailure('unsafe_content', `The part ${name} declares a DTD or entities, which documents never need (possible XML bomb).`);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/**
 * A chunk's term list as stored: (term id gap, frequency) pairs, ids ascending, as LEB128
 * varints. About 2.4 bytes a term instead of 8, which keeps reading 100k chunks back on the
 * first query of a namespace fast.
 */
export type TermList = { ids: Uint32Array; tfs: Uint32Array };

let scratch = new Uint8Array(4096);

function writeVarint(value: number, at: number): number {
  while (value >= 0x80) {
    scratch[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  scratch[at++] = value;
  return at;
}

/** `ids` must be ascending and distinct. */
export function encodeTerms({ ids, tfs }: TermList): Buffer {
  const worst = 10 * ids.length;
  if (scratch.length < worst) scratch = new Uint8Array(worst * 2);
  let at = 0;
  let previous = 0;
  for (let i = 0; i < ids.length; i++) {
    at = writeVarint(ids[i]! - previous, at);
    at = writeVarint(tfs[i]!, at);
    previous = ids[i]!;
  }
  return Buffer.from(scratch.subarray(0, at));
}

/** Every pair takes at least two bytes: room enough for `decodeInto`. */
export const maxTerms = (bytes: Uint8Array) => bytes.length >> 1;

/**
 * Decodes into `ids` and `tfs` from index `at` (with room for `maxTerms(bytes)` more), frequencies
 * capped at `maxTf`; returns the index after the last term written. No allocation: this runs for
 * every stored chunk when a namespace is read back.
 */
export function decodeInto(bytes: Uint8Array, ids: Uint32Array, tfs: Uint8Array | Uint32Array, at: number, maxTf = 0xffffffff): number {
  let i = 0;
  let id = 0;
  while (i < bytes.length) {
    let gap = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = bytes[i++] ?? 0;
      gap += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    let tf = 0;
    shift = 0;
    do {
      byte = bytes[i++] ?? 0;
      tf += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    id += gap;
    ids[at] = id;
    tfs[at++] = Math.min(tf, maxTf);
  }
  return at;
}

export function decodeTerms(bytes: Uint8Array): TermList {
  const ids = new Uint32Array(maxTerms(bytes));
  const tfs = new Uint32Array(ids.length);
  const n = decodeInto(bytes, ids, tfs, 0);
  return { ids: ids.subarray(0, n), tfs: tfs.subarray(0, n) };
}

import chardet from 'chardet';
import iconv from 'iconv-lite';

/** chardet's statistics settle long before this; scanning a whole large file would only cost time. */
const GUESS_SAMPLE = 256 * 1024;

export type Decoded = { text: string; encoding: string };

/** WHATWG treats these Latin-1 labels as windows-1252, and so do browsers and editors. */
const ALIASES: Record<string, string> = { 'iso-8859-1': 'windows-1252', 'us-ascii': 'windows-1252', ascii: 'windows-1252', latin1: 'windows-1252' };

/** The encoding a byte-order mark announces, if any, and how many bytes it takes. */
export function bomEncoding(bytes: Uint8Array): { encoding: 'utf-8' | 'utf-16le' | 'utf-16be'; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return undefined;
}

export function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Text files carry no reliable label: a BOM wins, then a charset the container declared (HTML
 * meta), then strict UTF-8, and only then chardet's statistical guess, which is right for
 * legacy single-byte and CJK files but unreliable on short ASCII-ish input.
 */
export function decodeText(bytes: Uint8Array, declared?: string): Decoded {
  const bom = bomEncoding(bytes);
  if (bom) return { text: new TextDecoder(bom.encoding).decode(bytes.subarray(bom.length)), encoding: bom.encoding };
  const label = declared && canonical(declared);
  if (label && iconv.encodingExists(label)) return { text: iconv.decode(Buffer.from(bytes), label), encoding: label };
  if (isValidUtf8(bytes)) return { text: new TextDecoder('utf-8').decode(bytes), encoding: 'utf-8' };
  const guessed = canonical(chardet.detect(bytes.subarray(0, GUESS_SAMPLE)) ?? 'windows-1252');
  const encoding = iconv.encodingExists(guessed) && !guessed.startsWith('utf') ? guessed : 'windows-1252';
  return { text: iconv.decode(Buffer.from(bytes), encoding), encoding };
}

function canonical(label: string): string {
  const lower = label.trim().toLowerCase();
  return ALIASES[lower] ?? lower;
}

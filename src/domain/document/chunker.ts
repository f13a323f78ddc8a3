import { createHash } from 'node:crypto';
import type { Block } from './block.ts';
import { MAX_BOXES, type Box } from './box.ts';
import { splitSentences } from './sentences.ts';
import { countTokens } from './tokens.ts';

export type ChunkingSettings = { max_tokens: number; overlap_tokens: number };

export type Chunk = {
  chunk_id: string;
  index: number;
  page: number;
  text: string;
  heading_path: string[];
  /** Offsets of the chunk's first and last character in its page's text (the page's blocks joined by "\n"). */
  char_start: number;
  char_end: number;
  token_count: number;
  /** The lines the chunk covers, `start` counted in the chunk's text (see Box); absent where its blocks have none. */
  boxes?: Box[];
};

type Unit = { text: string; start: number; end: number; tokens: number; headingPath: string[]; boundary: boolean; heading: boolean };

/**
 * Slices blocks into chunks of at most `max_tokens`, sentence by sentence (a table row counts as
 * one sentence), never across a page, and starting afresh at each heading. When a chunk is cut
 * only because it is full, the next one repeats up to `overlap_tokens` of its last sentences.
 * Ids hash the document id, position and text, so re-processing the same document gives the same ids.
 */
export function chunkBlocks(documentId: string, blocks: readonly Block[], settings: ChunkingSettings): Chunk[] {
  const chunks: Chunk[] = [];
  const lines = pageLines(blocks);
  for (const [page, units] of unitsByPage(blocks, settings.max_tokens)) {
    let current: Unit[] = [];
    let tokens = 0;
    const flush = () => {
      if (current.length === 0) return;
      chunks.push(withBoxes(makeChunk(documentId, chunks.length, page, current), lines.get(page)));
      current = [];
      tokens = 0;
    };
    for (const unit of units) {
      if (unit.boundary) flush();
      if (tokens + unit.tokens > settings.max_tokens && current.length > 0) {
        const carried = overlapTail(current, settings.overlap_tokens, settings.max_tokens - unit.tokens);
        flush();
        current = carried;
        tokens = carried.reduce((n, u) => n + u.tokens, 0);
      }
      current.push(unit);
      tokens += unit.tokens;
    }
    flush();
  }
  return chunks;
}

/** Every line box of each page, `start` counted in the page's text (its blocks joined by "\n", as chunk offsets are). */
function pageLines(blocks: readonly Block[]): Map<number, Box[]> {
  const pages = new Map<number, Box[]>();
  const offsets = new Map<number, number>();
  for (const block of blocks) {
    const offset = offsets.get(block.page) ?? 0;
    if (block.boxes?.length) {
      const lines = pages.get(block.page) ?? [];
      pages.set(block.page, lines);
      for (const box of block.boxes) lines.push({ ...box, start: offset + box.start });
    }
    offsets.set(block.page, offset + block.text.length + 1);
  }
  return pages;
}

/**
 * The chunk with the boxes of the lines its span of the page text covers, re-counted from the
 * chunk's start. The chunk joins its sentences by one character as the page text does, so the
 * offsets carry over (within a character where a block break became a space).
 */
function withBoxes(chunk: Chunk, lines: readonly Box[] | undefined): Chunk {
  if (!lines) return chunk;
  const covered = lines.filter((box, i) => box.start < chunk.char_end && (lines[i + 1]?.start ?? Infinity) > chunk.char_start);
  if (covered.length === 0) return chunk;
  const boxes = covered.slice(0, MAX_BOXES).map((box) => ({ ...box, start: Math.max(0, box.start - chunk.char_start) }));
  return { ...chunk, boxes };
}

function unitsByPage(blocks: readonly Block[], maxTokens: number): Map<number, Unit[]> {
  const pages = new Map<number, Unit[]>();
  const offsets = new Map<number, number>();
  for (const block of blocks) {
    const units = pages.get(block.page) ?? [];
    pages.set(block.page, units);
    const offset = offsets.get(block.page) ?? 0;
    const pieces = block.kind === 'table_row' || block.kind === 'code' || block.kind === 'heading' ? [block.text] : splitSentences(block.text);
    let searchFrom = 0;
    pieces.forEach((piece, i) => {
      for (const part of splitLong(piece, maxTokens)) {
        const at = block.text.indexOf(part, searchFrom);
        const start = offset + (at >= 0 ? at : searchFrom);
        searchFrom = at >= 0 ? at + part.length : searchFrom;
        units.push({ text: part, start, end: start + part.length, tokens: countTokens(part), headingPath: block.headingPath, boundary: block.kind === 'heading' && i === 0, heading: block.kind === 'heading' });
      }
    });
    offsets.set(block.page, offset + block.text.length + 1);
  }
  return pages;
}

/** A single sentence longer than a chunk is cut at word boundaries. */
function splitLong(sentence: string, maxTokens: number): string[] {
  if (countTokens(sentence) <= maxTokens) return [sentence];
  const parts: string[] = [];
  let current: string[] = [];
  let tokens = 0;
  for (const word of sentence.split(/\s+/)) {
    const t = countTokens(word);
    if (tokens + t > maxTokens && current.length > 0) {
      parts.push(current.join(' '));
      current = [];
      tokens = 0;
    }
    current.push(word);
    tokens += t;
  }
  if (current.length > 0) parts.push(current.join(' '));
  return parts;
}

function overlapTail(units: Unit[], overlapTokens: number, room: number): Unit[] {
  const tail: Unit[] = [];
  let tokens = 0;
  for (let i = units.length - 1; i > 0; i--) {
    const unit = units[i]!;
    if (tokens + unit.tokens > Math.min(overlapTokens, room)) break;
    tail.unshift({ ...unit, boundary: false });
    tokens += unit.tokens;
  }
  return tail;
}

function makeChunk(documentId: string, index: number, page: number, units: Unit[]): Chunk {
  // A heading ends its line, so readers (and the extractive answerer) do not take it for the
  // first words of the sentence after it.
  const text = units.map((u, i) => (i === 0 ? '' : units[i - 1]!.heading ? '\n' : ' ') + u.text).join('');
  const first = units[0]!;
  // A chunk that opens with a heading sits under that heading.
  const headingPath = first.boundary ? [...first.headingPath, first.text] : first.headingPath;
  return {
    chunk_id: `chk_${createHash('sha256').update(`${documentId}\u0000${index}\u0000${text}`).digest('hex').slice(0, 24)}`,
    index,
    page,
    text,
    heading_path: headingPath,
    char_start: units[0]!.start,
    char_end: units[units.length - 1]!.end,
    token_count: units.reduce((n, u) => n + u.tokens, 0),
  };
}

import { grown } from '../../lib/grown-array.ts';
import { StringIds } from '../../lib/string-ids.ts';

/** ELD's database without its n-grams: eld's `loadData` takes these with `ngrams` beside them. */
export type EldHeader = { type: string; languages: Record<string, string>; isSubset: boolean };

/** Per n-gram: the languages (by eld's index) that have it, and its score in each. */
type Scores = Record<string, number>;

/**
 * ELD's n-grams (105,548 in the medium database, 172,419 language scores) in typed arrays: each
 * n-gram's id in a StringIds, and per id its run of (language, score) pairs. As eld holds them,
 * an object of objects, they took 32 MB of heap for good from the first detection on, and on
 * their way there, through V8's young generation, they grew it to 32 MB semi-spaces (64 MB
 * resident): most of what a server's first search cost (docs/benchmarks.md, issue 36). Here
 * they hold about 4 MB, outside the heap.
 *
 * eld reads its n-grams only as `ngrams[ngram]`, iterating the languages of what it gets
 * (`for (lang in scores)`), so `ngrams` is a proxy that builds the n-gram's scores on each read
 * (see get): they are integers added per language, so no order of languages could change a sum.
 */
export class PackedNgrams {
  readonly #ids = new StringIds();
  /** Per id, where its pairs start; the next id's start is where they end. */
  #starts = new Uint32Array(1 << 16);
  #languages = new Uint8Array(1 << 18);
  #scores = new Uint16Array(1 << 18);
  #pairs = 0;

  /** Adds an n-gram and its scores (as eld's database has them: language index → integer score). */
  add(ngram: string, scores: Scores): void {
    const id = this.#ids.size;
    this.#ids.set(ngram, id);
    this.#starts = grown(this.#starts, id + 2);
    for (const [language, score] of Object.entries(scores)) {
      if (!Number.isInteger(score) || score < 0 || score > 0xffff || !/^\d{1,3}$/.test(language) || Number(language) > 255) throw new Error(`unexpected ELD score ${language}: ${score}`);
      this.#languages = grown(this.#languages, this.#pairs + 1);
      this.#scores = grown(this.#scores, this.#pairs + 1);
      this.#languages[this.#pairs] = Number(language);
      this.#scores[this.#pairs++] = score;
    }
    this.#starts[id + 1] = this.#pairs;
  }

  /**
   * The n-gram's score per language index, or undefined when it has none: a sparse array, which
   * `for…in` walks as it walks eld's objects (indices ascending) and V8 builds three times faster.
   */
  get(ngram: string): number[] | undefined {
    const id = this.#ids.get(ngram);
    if (id === undefined) return undefined;
    const scores: number[] = [];
    for (let p = this.#starts[id]!, end = this.#starts[id + 1]!; p < end; p++) scores[this.#languages[p]!] = this.#scores[p]!;
    return scores;
  }

  /** What eld's `languageData.ngrams` is read as. */
  asEldNgrams(): Record<string, number[]> {
    return new Proxy({} as Record<string, number[]>, { get: (_, key) => (typeof key === 'string' ? this.get(key) : undefined) });
  }

  /** Bytes held, as allocated. */
  bytes(): number {
    let bytes = this.#starts.byteLength + this.#languages.byteLength + this.#scores.byteLength;
    for (const array of this.#ids.arrays()) bytes += array.byteLength;
    return bytes;
  }
}

/**
 * The database as the lines the conversion writes (eld-database.ts): its header as JSON, then one
 * JSON line per n-gram, `[ngram, scores]`. Each line is parsed and packed on its own, so only one
 * n-gram's objects live at a time and none survive to the old generation.
 */
export function readPackedNgrams(lines: string): { header: EldHeader; ngrams: PackedNgrams } {
  const ngrams = new PackedNgrams();
  let at = lines.indexOf('\n');
  const header = JSON.parse(lines.slice(0, at)) as EldHeader;
  while (at < lines.length - 1) {
    const end = lines.indexOf('\n', at + 1);
    const [ngram, scores] = JSON.parse(lines.slice(at + 1, end < 0 ? lines.length : end)) as [string, Scores];
    ngrams.add(ngram, scores);
    at = end < 0 ? lines.length : end;
  }
  return { header, ngrams };
}

/** The conversion's script body, run where eld's database module was imported as `m`: writes the lines readPackedNgrams reads. */
export const WRITE_NGRAM_LINES = `const { ngrams, ...header } = m.ngramsData;
const lines = [JSON.stringify(header)];
for (const [ngram, scores] of Object.entries(ngrams)) lines.push(JSON.stringify([ngram, scores]));
process.stdout.write(lines.join('\\n'));`;

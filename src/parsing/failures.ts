import { ParseFailure } from './types.ts';

/**
 * Libraries throw whatever they like on broken input; the pipeline only understands
 * ParseFailure. Anything else thrown while reading a file means the file is damaged.
 */
export function asParseFailure(error: unknown, what: string): ParseFailure {
  if (error instanceof ParseFailure) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new ParseFailure('corrupt', `The ${what} could not be read: ${detail.slice(0, 200)}`);
}

export async function failingAs<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asParseFailure(error, what);
  }
}

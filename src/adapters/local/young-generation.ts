/**
 * V8's young generation for the server and its query processes: semi-spaces of up to 64 MB
 * instead of Node's 16. A search allocates a few hundred KB (passages, scores, JSON); with 16 MB
 * the main process was scavenged about 20 times a second at 32 clients, 3–7 ms each, and every
 * scavenge holds up each request in flight. Measured on 101,613 chunks, 32 clients, two
 * alternated pairs: search 641–667 → 687–731/s with p99 83–103 → 66–71 ms, chat 283–298 →
 * 311–339/s; 32 MB kept search p99 at 103 ms, 128 MB gained nothing over 64. The space is
 * committed only as it fills, so an idle server does not pay for it.
 *
 * Heap sizes are fixed when a process starts, so the flag is given on the command line
 * (`npm start`, the `kbqa` command's first line, the image's NODE_OPTIONS) and here to children.
 */
export const YOUNG_GENERATION_FLAG = '--max-semi-space-size=64';

/** A child's Node flags: the parent's, with the young generation's size unless one is given. */
export function withYoungGeneration(execArgv: readonly string[]): string[] {
  return execArgv.some((flag) => flag.startsWith('--max-semi-space-size')) ? [...execArgv] : [...execArgv, YOUNG_GENERATION_FLAG];
}

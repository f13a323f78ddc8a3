import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * Time-ordered ids (ULID layout: 48 bits of milliseconds, 80 random bits, Crockford base32,
 * lower case), monotonic within one process, so sorting by id sorts by creation.
 */
export function createIdGenerator(now: () => number = Date.now) {
  let lastTime = -1;
  let lastRandom = new Uint8Array(10);
  return (prefix: string): string => {
    const time = now();
    if (time === lastTime) increment(lastRandom);
    else {
      lastTime = time;
      lastRandom = new Uint8Array(randomBytes(10));
    }
    return `${prefix}_${encodeTime(time)}${encodeRandom(lastRandom)}`;
  };
}

export type IdGenerator = ReturnType<typeof createIdGenerator>;

function encodeTime(time: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[time % 32]! + out;
    time = Math.floor(time / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = ALPHABET[Number(bits & 31n)]! + out;
    bits >>= 5n;
  }
  return out;
}

function increment(bytes: Uint8Array) {
  for (let i = bytes.length - 1; i >= 0; i--) {
    if (bytes[i] === 255) bytes[i] = 0;
    else {
      bytes[i]! += 1;
      return;
    }
  }
}

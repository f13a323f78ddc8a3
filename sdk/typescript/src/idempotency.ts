/** A fresh Idempotency-Key: the server then answers a retry of the same request with its first result. */
export function newIdempotencyKey(): string {
  return `kbqa-sdk-${globalThis.crypto.randomUUID()}`;
}

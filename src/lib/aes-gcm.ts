import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM, with the bytes laid out as nonce (12) ‖ tag (16) ‖ ciphertext. `context` is bound
 * as additional data, so a sealed value moved to another context (a workspace, a ref, a purpose)
 * fails to open instead of decrypting there. GCM authenticates: a changed byte fails `open` too.
 */
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export function seal(key: Buffer, plain: Buffer, context: string): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]);
}

export function open(key: Buffer, sealed: Buffer, context: string): Buffer {
  const nonce = sealed.subarray(0, NONCE_BYTES);
  const tag = sealed.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, nonce);
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]);
}

/**
 * A 32-byte key for one purpose, derived from a master key (HKDF-SHA256): each use has a key of
 * its own, and learning one tells nothing of the master or of the others.
 */
export function deriveKey(master: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), Buffer.from(purpose, 'utf8'), 32));
}

/**
 * A multipart/form-data body built by hand rather than with FormData: FormData sends a file name
 * as raw UTF-8, which servers reading parameters as Latin-1 (busboy's default) garble, while
 * RFC 7578 / RFC 5987's `filename*=UTF-8''…` is read right everywhere. Parts stay Blobs, so
 * large files are not copied into one buffer.
 */
export type FormPart = { name: string; value: string } | { name: string; filename: string; blob: Blob };

const quoted = (s: string) => s.replace(/[\r\n"\\]/g, (c) => encodeURIComponent(c));
const asciiFallback = (s: string) => s.replace(/[^\x20-\x7e]/g, '_');
/** RFC 5987 ext-value: percent-encoded UTF-8, where only attr-chars stay as they are (not `'()*`). */
const extValue = (s: string) => `UTF-8''${encodeURIComponent(s).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;

export function multipartBody(parts: FormPart[]): { body: Blob; contentType: string } {
  const boundary = `kbqa-${globalThis.crypto.randomUUID()}`;
  const pieces: (string | Blob)[] = [];
  for (const part of parts) {
    pieces.push(`--${boundary}\r\n`);
    if ('blob' in part) {
      const star = /^[\x20-\x7e]*$/.test(part.filename) ? '' : `; filename*=${extValue(part.filename)}`;
      pieces.push(`Content-Disposition: form-data; name="${quoted(part.name)}"; filename="${quoted(asciiFallback(part.filename))}"${star}\r\n`);
      pieces.push(`Content-Type: ${part.blob.type || 'application/octet-stream'}\r\n\r\n`, part.blob, '\r\n');
    } else {
      pieces.push(`Content-Disposition: form-data; name="${quoted(part.name)}"\r\n\r\n`, part.value, '\r\n');
    }
  }
  pieces.push(`--${boundary}--\r\n`);
  return { body: new Blob(pieces), contentType: `multipart/form-data; boundary=${boundary}` };
}

import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { Parser as HtmlParser } from 'htmlparser2';
import { type BlockBuilder, createBlockBuilder } from '../block-builder.ts';
import { htmlBlockHandler } from './html-blocks.ts';
import { decodeCharset, decodeWords, type MimePart, parseMime } from './mime.ts';
import { type Attachment, MEDIA_TYPES, type Parser } from '../types.ts';

/** Headers a reader of the message sees, kept as text under the subject. */
const SHOWN_HEADERS = ['from', 'to', 'cc', 'date'];
/** More attachments than this is an archive mailed around, not a message; the rest are listed in warnings. */
const MAX_ATTACHMENTS = 50;

type Content = { body?: MimePart; attachments: MimePart[] };

/**
 * Emails (RFC 5322/MIME): the subject as the title, From/To/Cc/Date as text, the body (of a
 * multipart/alternative, the HTML part, which keeps lists and tables; else the plain one), then
 * the attachments' names under "Attachments", all on page 1. The attachments themselves are
 * handed back with their bytes: the parser consumer makes each a document of its own, linked to
 * the email (consumers/parser/attachments.ts), so their text is not repeated here.
 */
export const parseEml: Parser = async (input) => {
  const message = parseMime(await readFile(input.path));
  const builder = createBlockBuilder();
  const subject = decodeWords(message.headers.get('subject') ?? '');
  if (subject) builder.heading(subject, 1, 1);
  for (const name of SHOWN_HEADERS) {
    const value = message.headers.get(name);
    if (value) builder.add('paragraph', `${name[0]!.toUpperCase()}${name.slice(1)}: ${decodeWords(value)}`, 1);
  }
  const content: Content = { attachments: [] };
  collect(message, content);
  if (content.body) writeBody(content.body, builder);

  const warnings: string[] = [];
  const attachments: Attachment[] = [];
  for (const [index, part] of content.attachments.entries()) {
    const name = safeName(part.filename ?? `attachment-${index + 1}${part.type === 'message/rfc822' ? '.eml' : ''}`);
    if (index >= MAX_ATTACHMENTS) warnings.push(`Attachment "${name}" was skipped: more than ${MAX_ATTACHMENTS} attachments.`);
    // A forwarded message's body is its own MIME text; other parts are already transfer-decoded.
    else attachments.push({ name, bytes: new Uint8Array(part.body) });
  }
  if (attachments.length) {
    builder.heading('Attachments', 2, 1);
    for (const { name } of attachments) builder.add('list_item', name, 1, 0);
  }
  const parsed = builder.finish({ mediaType: MEDIA_TYPES.eml, pageCount: 1, warnings, limits: input.limits });
  input.onProgress?.(1, 1);
  return attachments.length ? { ...parsed, attachments } : parsed;
};

/** Walks the MIME tree: the first readable text is the body, named or non-text parts are attachments. */
function collect(part: MimePart, content: Content): void {
  if (part.type === 'multipart/alternative') {
    const choice = part.parts.find((p) => p.type === 'text/html') ?? part.parts.find((p) => p.type === 'text/plain') ?? part.parts[part.parts.length - 1];
    if (choice) collect(choice, content);
    return;
  }
  if (part.type.startsWith('multipart/')) {
    for (const child of part.parts) collect(child, content);
    return;
  }
  const isText = part.type === 'text/plain' || part.type === 'text/html';
  if (isText && !content.body && part.disposition !== 'attachment' && !part.filename) {
    content.body = part;
    return;
  }
  // Inline images of an HTML message are its logos and signatures, not attachments anyone sent.
  if (part.disposition === 'inline' && part.type.startsWith('image/')) return;
  if (part.body.length > 0 || part.parts.length > 0) content.attachments.push(part);
}

function writeBody(part: MimePart, builder: BlockBuilder): void {
  const text = decodeCharset(part.body, part.params.charset);
  if (part.type === 'text/html') {
    new HtmlParser(htmlBlockHandler(builder, 1), { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true }).end(text);
    return;
  }
  for (const paragraph of text.replace(/\r\n?/g, '\n').split(/\n[ \t\u00A0]*\n/)) builder.add('paragraph', paragraph, 1);
}

/** A file name from a header is untrusted: no folders, no control characters, a sane length. */
function safeName(raw: string): string {
  const name = basename(raw.replace(/\\/g, '/')).replace(/[\u0000-\u001f]/g, '').slice(0, 200);
  return name && name !== '.' && name !== '..' ? name : 'attachment';
}

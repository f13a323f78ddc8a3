import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Parser as HtmlParser } from 'htmlparser2';
import { type BlockBuilder, createBlockBuilder } from './block-builder.ts';
import { detectMediaType } from './detect.ts';
import { htmlBlockHandler } from './html-blocks.ts';
import { decodeCharset, decodeWords, type MimePart, parseMime } from './mime.ts';
import { MEDIA_TYPES, type MediaType, type ParsedDocument, type ParseInput, ParseFailure, type Parser } from './types.ts';

/** Headers a reader of the message sees, kept as text under the subject. */
const SHOWN_HEADERS = ['from', 'to', 'cc', 'date'];
/** More attachments than this is an archive mailed around, not a message; the rest are listed in warnings. */
const MAX_ATTACHMENTS = 50;

type Content = { body?: MimePart; attachments: MimePart[] };

/**
 * Emails (RFC 5322/MIME): the subject as the title, From/To/Cc/Date as text, the body (of a
 * multipart/alternative, the HTML part, which keeps lists and tables; else the plain one) on page
 * 1, then each attachment a supported parser can read as a section "Attachment: <name>" on the
 * pages after it. Attachments that fail or are of unsupported types are named in the warnings.
 */
export function emlParser(parserFor: (mediaType: MediaType) => Promise<Parser>): Parser {
  return async (input) => {
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
    const ocrPages: number[] = [];
    let pageCount = 1;
    for (const [index, part] of content.attachments.entries()) {
      const name = safeName(part.filename ?? `attachment-${index + 1}${part.type === 'message/rfc822' ? '.eml' : ''}`);
      if (index >= MAX_ATTACHMENTS) {
        warnings.push(`Attachment "${name}" was skipped: more than ${MAX_ATTACHMENTS} attachments.`);
        continue;
      }
      const parsed = await parseAttachment(part, name, input, parserFor, warnings);
      if (!parsed) continue;
      builder.resetHeadings();
      builder.heading(`Attachment: ${name}`, 1, pageCount + 1);
      for (const block of parsed.blocks) {
        const page = pageCount + block.page;
        if (block.kind === 'heading') builder.heading(block.text, (block.level ?? 1) + 1, page);
        else builder.add(block.kind, block.text, page, block.level);
      }
      ocrPages.push(...parsed.ocrPages.map((p) => pageCount + p));
      warnings.push(...parsed.warnings.map((w) => `Attachment "${name}": ${w}`));
      pageCount += parsed.pageCount;
    }
    const parsed = builder.finish({ mediaType: MEDIA_TYPES.eml, pageCount, warnings, limits: input.limits });
    input.onProgress?.(pageCount, pageCount);
    return { ...parsed, ocrPages };
  };
}

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

/** Attachments go through the same detection and parsers as uploads, from a private temporary copy. */
async function parseAttachment(
  part: MimePart,
  name: string,
  input: ParseInput,
  parserFor: (mediaType: MediaType) => Promise<Parser>,
  warnings: string[],
): Promise<ParsedDocument | undefined> {
  const dir = await mkdtemp(join(tmpdir(), 'kbqa-eml-'));
  try {
    const path = join(dir, name);
    // A forwarded message's body is its own MIME text; other parts are already transfer-decoded.
    await writeFile(path, part.body);
    const detected = await detectMediaType(path, name);
    if (!detected.ok) {
      warnings.push(`Attachment "${name}" was not read: ${detected.message}`);
      return undefined;
    }
    const parse = await parserFor(detected.mediaType);
    return await parse({ path, fileName: name, mediaType: detected.mediaType, limits: input.limits });
  } catch (error) {
    if (!(error instanceof ParseFailure)) throw error;
    warnings.push(`Attachment "${name}" was not read (${error.code}): ${error.message}`);
    return undefined;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A file name from a header is untrusted: no folders, no control characters, a sane length. */
function safeName(raw: string): string {
  const name = basename(raw.replace(/\\/g, '/')).replace(/[\u0000-\u001f]/g, '').slice(0, 200);
  return name && name !== '.' && name !== '..' ? name : 'attachment';
}

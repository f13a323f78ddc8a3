import { readFile } from 'node:fs/promises';
import { Lexer, type Token, type Tokens } from 'marked';
import { type BlockBuilder, createBlockBuilder } from '../block-builder.ts';
import { decodeText } from '../language/decode.ts';
import { htmlText } from './html-text.ts';
import { plainMarkdown } from './markdown-source.ts';
import { rowText } from '../table-text.ts';
import { MEDIA_TYPES, type Parser } from '../types.ts';

/** Markdown: marked's block tokens become blocks; inline markup is reduced to its text. */
export const parseMarkdown: Parser = async ({ path, limits, onProgress }) => {
  const { text } = decodeText(await readFile(path));
  const builder = createBlockBuilder();
  walk(new Lexer({ gfm: true }).lex(plainMarkdown(text)), builder, { listDepth: 0, quoted: false });
  onProgress?.(1, 1);
  return builder.finish({ mediaType: MEDIA_TYPES.markdown, pageCount: 1, limits });
};

type Context = { listDepth: number; quoted: boolean };

function walk(tokens: Token[], builder: BlockBuilder, context: Context): void {
  for (const token of tokens) {
    switch (token.type) {
      case 'heading':
        builder.heading(inline(token.tokens ?? []), (token as Tokens.Heading).depth, 1);
        break;
      case 'paragraph':
      case 'text':
        builder.add(context.quoted ? 'quote' : 'paragraph', token.tokens ? inline(token.tokens) : decode(token.text ?? ''), 1);
        break;
      case 'list':
        for (const item of (token as Tokens.List).items) listItem(item, builder, context);
        break;
      case 'table': {
        const table = token as Tokens.Table;
        const header = table.header.map((cell) => inline(cell.tokens));
        builder.add('table_row', rowText(header), 1);
        for (const row of table.rows) builder.add('table_row', rowText(row.map((cell) => inline(cell.tokens)), header), 1);
        break;
      }
      case 'code':
        builder.add('code', (token as Tokens.Code).text, 1);
        break;
      case 'blockquote':
        walk((token as Tokens.Blockquote).tokens, builder, { ...context, quoted: true });
        break;
      case 'html':
        builder.add(context.quoted ? 'quote' : 'paragraph', htmlText(token.text ?? ''), 1);
        break;
      default:
        // space, hr, def: nothing to read
        break;
    }
  }
}

/** An item's own text is one block; its nested lists and code follow as their own blocks. */
function listItem(item: Tokens.ListItem, builder: BlockBuilder, context: Context) {
  const own: string[] = [];
  const rest: Token[] = [];
  for (const child of item.tokens) {
    if ((child.type === 'text' || child.type === 'paragraph') && rest.length === 0) own.push(child.tokens ? inline(child.tokens) : decode(child.text ?? ''));
    else rest.push(child);
  }
  const prefix = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
  builder.add('list_item', prefix + own.join(' '), 1, context.listDepth);
  walk(rest, builder, { ...context, listDepth: context.listDepth + 1 });
}

function inline(tokens: Token[]): string {
  return tokens
    .map((token): string => {
      switch (token.type) {
        case 'text':
        case 'escape':
          return 'tokens' in token && token.tokens ? inline(token.tokens) : decode(token.text ?? '');
        case 'codespan':
          return decode(token.text ?? '');
        case 'image':
          return token.text ?? '';
        case 'br':
          return ' ';
        case 'html':
        case 'checkbox':
          return '';
        default:
          if ('tokens' in token && token.tokens) return inline(token.tokens);
          return 'text' in token && typeof token.text === 'string' ? token.text : '';
      }
    })
    .join('');
}

/** marked leaves entity references (&amp;, &copy;) as written. */
const decode = (text: string) => (text.includes('&') ? htmlText(text.replace(/</g, '&lt;')) : text);

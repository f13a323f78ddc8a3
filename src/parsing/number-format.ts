/**
 * Numbers as Excel shows them, for the formats that carry meaning in text: decimals, thousands
 * separators, percentages, currency and unit literals, negatives in parentheses. Anything more
 * exotic (fractions, scaling, conditions) falls back to the plain value, which is still right.
 */
export function formatNumber(value: number, format: string | undefined): string {
  if (!Number.isFinite(value)) return String(value);
  const sections = splitSections(format ?? '');
  const general = () => plain(value);
  if (!format || /^general$/i.test(format.trim()) || format === '@') return general();
  let section = sections[0] ?? '';
  let magnitude = value;
  if (value < 0 && sections.length > 1) {
    section = sections[1] ?? section;
    magnitude = -value;
  } else if (value === 0 && sections.length > 2) section = sections[2] ?? section;
  const cleaned = literalsOf(section);
  // exceljs turns date-formatted cells into Dates; a date format it did not recognise lands here.
  const codes = section.replace(/"[^"]*"|\\.|\[[^\]]*\]|General/gi, '');
  if (/[ymdhs]/i.test(codes)) return serialDate(value);
  const placeholder = /[#0?][#0?,]*(?:\.[#0?]*)?(?:E[+-]0+)?/i.exec(cleaned);
  if (!placeholder) return unpark(cleaned).trim() || general();
  if (/\//.test(cleaned) || /,$/.test(placeholder[0])) return general();
  const pattern = placeholder[0];
  const percent = cleaned.includes('%');
  const decimals = /\.([#0?]*)/.exec(pattern)?.[1]?.length ?? 0;
  const scaled = percent ? magnitude * 100 : magnitude;
  let number: string;
  const exponent = /E([+-])(0+)/i.exec(pattern);
  if (exponent) {
    const [mantissa = '', power = '0'] = scaled.toExponential(decimals).split('e');
    const digits = String(Math.abs(Number(power))).padStart(exponent[2]!.length, '0');
    number = `${mantissa}E${Number(power) < 0 ? '-' : exponent[1] === '+' ? '+' : ''}${digits}`;
  }
  else {
    const fixed = Math.abs(scaled).toFixed(decimals);
    const [whole = '0', fraction] = fixed.split('.');
    const grouped = /[#0?],[#0?]/.test(pattern) ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
    number = (scaled < 0 ? '-' : '') + grouped + (fraction ? `.${fraction}` : '');
  }
  return unpark(cleaned.slice(0, placeholder.index) + number + cleaned.slice(placeholder.index + pattern.length)).trim();
}

/** An Excel serial date (days since 1899-12-30, the fraction a time of day) as ISO 8601. */
function serialDate(serial: number): string {
  const iso = new Date(Math.round((serial - 25569) * 86_400_000)).toISOString();
  if (serial < 1) return iso.slice(11, 19);
  return Number.isInteger(serial) ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** Shortest decimal that round-trips at Excel's 15 significant digits (no 0.30000000000000004). */
export function plain(value: number): string {
  if (Number.isSafeInteger(value)) return String(value);
  return String(Number(value.toPrecision(15)));
}

function splitSections(format: string): string[] {
  const sections: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of format) {
    if (char === '"') quoted = !quoted;
    if (char === ';' && !quoted) {
      sections.push(current);
      current = '';
    } else current += char;
  }
  sections.push(current);
  return sections;
}

/**
 * Keeps what a format prints besides the number: quoted text, escaped characters, currency
 * symbols. Placeholder characters inside literals are parked in the private-use area so the
 * number pattern cannot match them, and restored by `unpark`.
 */
function literalsOf(section: string): string {
  return section
    .replace(/\[\$([^\]-]*)(?:-[^\]]*)?\]/g, (_, symbol: string) => park(symbol))
    .replace(/\[[^\]]*\]/g, '')
    .replace(/"([^"]*)"/g, (_, text: string) => park(text))
    .replace(/\\(.)/g, (_, c: string) => park(c))
    .replace(/_./g, ' ')
    .replace(/\*./g, '');
}

const park = (text: string) => text.replace(/[#0?,.%E]/g, (c) => String.fromCharCode(0xe000 + c.charCodeAt(0)));
const unpark = (text: string) => text.replace(/[\uE000-\uE07F]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xe000));

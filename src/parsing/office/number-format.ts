/**
 * Numbers as Excel shows them, for the formats that carry meaning in text: decimals, thousands
 * separators, percentages, currency and unit literals, negatives in parentheses. Anything more
 * exotic (fractions, scaling, conditions) falls back to the plain value, which is still right.
 */
export function formatNumber(value: number, format: string | undefined): string {
  if (!Number.isFinite(value)) return String(value);
  if (!format || /^general$/i.test(format.trim()) || format === '@') return plain(value);
  const { section, magnitude } = pickSection(value, splitSections(format));
  const cleaned = literalsOf(section);
  // exceljs turns date-formatted cells into Dates; a date format it did not recognise lands here.
  const codes = section.replace(/"[^"]*"|\\.|\[[^\]]*\]|General/gi, '');
  if (/[ymdhs]/i.test(codes)) return serialDate(value);
  const placeholder = /[#0?][#0?,]*(?:\.[#0?]*)?(?:E[+-]0+)?/i.exec(cleaned);
  if (!placeholder) return unpark(cleaned).trim() || plain(value);
  if (/\//.test(cleaned) || /,$/.test(placeholder[0])) return plain(value);
  const pattern = placeholder[0];
  const scaled = cleaned.includes('%') ? magnitude * 100 : magnitude;
  const number = formatDigits(scaled, pattern);
  return unpark(cleaned.slice(0, placeholder.index) + number + cleaned.slice(placeholder.index + pattern.length)).trim();
}

/**
 * The section for the value's sign (positive;negative;zero) and the number it shows: a negative
 * section prints its own sign, so it gets the magnitude.
 */
function pickSection(value: number, sections: string[]): { section: string; magnitude: number } {
  const first = sections[0] ?? '';
  if (value < 0 && sections.length > 1) return { section: sections[1] ?? first, magnitude: -value };
  if (value === 0 && sections.length > 2) return { section: sections[2] ?? first, magnitude: value };
  return { section: first, magnitude: value };
}

/** The number written by a placeholder pattern such as `#,##0.00` or `0.0E+00`. */
function formatDigits(scaled: number, pattern: string): string {
  const decimals = /\.([#0?]*)/.exec(pattern)?.[1]?.length ?? 0;
  const exponent = /E([+-])(0+)/i.exec(pattern);
  if (exponent) return scientific(scaled, decimals, { sign: exponent[1]!, width: exponent[2]!.length });
  const fixed = Math.abs(scaled).toFixed(decimals);
  const [whole = '0', fraction] = fixed.split('.');
  const grouped = /[#0?],[#0?]/.test(pattern) ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
  return (scaled < 0 ? '-' : '') + grouped + (fraction ? `.${fraction}` : '');
}

/** `E+` shows the exponent's sign always, `E-` only when negative; `width` zeros pad its digits. */
function scientific(scaled: number, decimals: number, exponent: { sign: string; width: number }): string {
  const [mantissa = '', power = '0'] = scaled.toExponential(decimals).split('e');
  const digits = String(Math.abs(Number(power))).padStart(exponent.width, '0');
  const sign = Number(power) < 0 ? '-' : exponent.sign === '+' ? '+' : '';
  return `${mantissa}E${sign}${digits}`;
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

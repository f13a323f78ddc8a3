/** What may be shown of a secret: its last four characters, only once it is long enough that they say little. */
export const secretHint = (value: string) => (value.length >= 8 ? `…${value.slice(-4)}` : '…');

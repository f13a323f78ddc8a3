type Numeric = Uint8Array | Uint16Array | Int32Array | Uint32Array | Float32Array;

/** `array` if it already holds `need` elements, else a copy at least twice as long, new slots set to `fill`. */
export function grown<T extends Numeric>(array: T, need: number, fill?: number): T {
  if (array.length >= need) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(need, array.length * 2, 64));
  next.set(array);
  if (fill !== undefined) next.fill(fill, array.length);
  return next;
}

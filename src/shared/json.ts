// Bounds of a parsed JSON value, measured without recursion (a body nested a
// million levels deep cannot overflow the stack): the handler's and the
// emulator's one walker.

/** A JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Which bound a parsed JSON value breaks first, walking it depth first: 'depth' for an array or object nested deeper
 * than `depth` levels (the value itself is level 1, a scalar none), 'entries' for more than `entries` keys and array
 * items in all; null when it fits.
 */
export function jsonBeyond(value: unknown, limits: { depth: number; entries?: number }): 'depth' | 'entries' | null {
  if (value === null || typeof value !== 'object') return null;
  const maxEntries = limits.entries ?? Infinity;
  let entries = 0;
  // Only arrays and objects are stacked (a large array of scalars costs no allocation per item).
  const items: object[] = [value];
  const depths: number[] = [1];
  while (items.length > 0) {
    const item = items.pop()!;
    const depth = depths.pop()!;
    if (depth > limits.depth) return 'depth';
    if (Array.isArray(item)) {
      entries += item.length;
      for (let i = 0; i < item.length; i++) {
        const child: unknown = item[i];
        if (child !== null && typeof child === 'object') {
          items.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in item) {
        if (!Object.hasOwn(item, key)) continue;
        entries++;
        const child: unknown = (item as Record<string, unknown>)[key];
        if (child !== null && typeof child === 'object') {
          items.push(child);
          depths.push(depth + 1);
        }
      }
    }
    if (entries > maxEntries) return 'entries';
  }
  return null;
}

/**
 * Jaro-Winkler similarity of two strings, 0 (nothing in common) to 1 (equal). Jaro counts the characters
 * that match within half the longer length and the transpositions among them; Winkler adds weight for a
 * common prefix of up to 4 characters (scale 0.1), which suits names: typos are rarer at the start.
 */
export function jaro(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatched = new Array<boolean>(a.length).fill(false);
  const bMatched = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(b.length - 1, i + window);
    for (let j = from; j <= to; j++) {
      if (bMatched[j] || a[i] !== b[j]) continue;
      aMatched[i] = true;
      bMatched[j] = true;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let transposed = 0;
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    if (!aMatched[i]) continue;
    while (!bMatched[j]) j++;
    if (a[i] !== b[j]) transposed++;
    j++;
  }
  const m = matches;
  return (m / a.length + m / b.length + (m - transposed / 2) / m) / 3;
}

export function jaroWinkler(a: string, b: string, prefixScale = 0.1): number {
  const similarity = jaro(a, b);
  let prefix = 0;
  const limit = Math.min(4, a.length, b.length);
  while (prefix < limit && a[prefix] === b[prefix]) prefix++;
  return similarity + prefix * prefixScale * (1 - similarity);
}

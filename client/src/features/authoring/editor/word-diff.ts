/**
 * A word diff for the history view (docs/authoring.md: a readable diff). `diff` (jsdiff) is not among
 * the installed packages, and a question is a few hundred words at most, so this is the
 * textbook longest-common-subsequence over words, after the common start and end are set
 * aside (most edits touch a few words, which keeps the table small).
 */
export type DiffPart = { kind: 'same' | 'added' | 'removed'; text: string };

/** Words and the spaces between them, kept, so that the parts join back into the texts. */
function tokenize(text: string): string[] {
  return text.match(/\s+|[^\s]+/g) ?? [];
}

/** Joins neighbouring parts of the same kind. */
function merge(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  for (const p of parts) {
    if (p.text === '') continue;
    const last = out[out.length - 1];
    if (last && last.kind === p.kind) last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}

/** How `before` became `after`, word by word. */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokenize(before);
  const b = tokenize(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  // lcs[i * (m + 1) + j]: length of the longest common subsequence of midA[i..] and midB[j..].
  const lcs = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * (m + 1) + j] = midA[i] === midB[j] ? lcs[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(lcs[(i + 1) * (m + 1) + j]!, lcs[i * (m + 1) + j + 1]!);
    }
  }
  const parts: DiffPart[] = [{ kind: 'same', text: a.slice(0, start).join('') }];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (midA[i] === midB[j]) {
      parts.push({ kind: 'same', text: midA[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * (m + 1) + j]! >= lcs[i * (m + 1) + j + 1]!) {
      parts.push({ kind: 'removed', text: midA[i++]! });
    } else {
      parts.push({ kind: 'added', text: midB[j++]! });
    }
  }
  while (i < n) parts.push({ kind: 'removed', text: midA[i++]! });
  while (j < m) parts.push({ kind: 'added', text: midB[j++]! });
  parts.push({ kind: 'same', text: a.slice(endA).join('') });
  return merge(parts);
}

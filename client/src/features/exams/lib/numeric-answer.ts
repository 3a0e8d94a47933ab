import { parseNumericSpec } from '@pm/protocol/marking';

/** A numerical question's accepted answer, its numbers written for the reader. */
export type NumericAnswer =
  | { kind: 'exact'; value: string }
  | { kind: 'tolerance'; value: string; tol: string; min: string; max: string }
  | { kind: 'range'; min: string; max: string }
  | { kind: 'raw'; value: string };

/**
 * A numerical question's accepted answer as a learner reads it (docs/exams.md "Numerical
 * questions"): `3` is 3, `3:0.5` is 3 ± 0.5 (2.5 to 3.5), `1..5` is 1 to 5.
 */
export function describeNumericAnswer(spec: string): NumericAnswer {
  const parsed = parseNumericSpec(spec);
  if (!parsed) return { kind: 'raw', value: spec };
  // Sums of binary fractions (2.5 + 0.1) are shown as the decimals they stand for.
  const n = (x: number) => String(Math.round(x * 1e9) / 1e9);
  const tol = /^([^:]+):([^:]+)$/.exec(spec.trim());
  if (tol) return { kind: 'tolerance', value: n((parsed.min + parsed.max) / 2), tol: n((parsed.max - parsed.min) / 2), min: n(parsed.min), max: n(parsed.max) };
  if (parsed.min === parsed.max) return { kind: 'exact', value: n(parsed.min) };
  return { kind: 'range', min: n(parsed.min), max: n(parsed.max) };
}

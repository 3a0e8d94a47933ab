/*
 * The compact, exact form of a score histogram on the wire (docs/live-tests.md "What is
 * published", "Bytes"): one base64url string per histogram, a few hundred bytes for a set taken
 * by thousands. Pure and shared: the server encodes what it publishes, a device decodes what it
 * ranks in (and migrates the histograms it held in the older form, rxdb-migrations.ts).
 *
 * Exact, never rounded: decoding gives back the very marks and counts that were encoded, so a
 * device's rank stays the server's. Marks are integers of 1/10,000 (scoring.ts keeps marks to 4
 * decimals) on the lattice first + k·unit, unit the greatest common divisor of the distances
 * between them (0.5 marks for a set at 2/−0.5). A histogram whose marks are off that grid (never
 * written by the scoring, but a histogram is a histogram) keeps each mark's 64-bit float instead.
 *
 * The bits, most significant first, six to a base64url character (the last padded with zeros):
 *
 *   mode       gamma: 0 dense, 1 sparse, 2 raw floats
 *   dense      gamma(unit), gamma(zz(q)), gamma(r) with first = q·unit + r, gamma(span);
 *              then for every lattice point first..first + span·unit its count (0 for a mark
 *              nobody has) as rice(zz(count − previous count))
 *   sparse     the same unit and first, gamma(bins − 1); then per bin after the first
 *              rice(lattice steps from the previous bin − 1), and per bin rice(zz(count − previous))
 *   raw        gamma(bins − 1); per bin the mark's IEEE 754 double (64 bits) and rice(zz(count − previous))
 *
 * gamma is Elias's gamma code of v + 1; zz the zigzag map of a signed integer (0, −1, 1, −2 → 0,
 * 1, 2, 3); rice a Rice code whose parameter adapts to the mean of the values coded before it
 * (as JPEG-LS does), so the dense middle of a distribution and its sparse tails each cost what
 * they need, with an escape to gamma for an outlier. Counts go as differences from the previous
 * count, which a distribution's smooth shape keeps small. The encoder writes whichever of dense
 * and sparse is shorter.
 */

import type { Histogram } from './score-dist';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE_OF = new Map([...ALPHABET].map((ch, i) => [ch, i]));

/** Marks are integers of this fraction (scoring.ts round: 4 decimals). */
const SCALE = 10_000;

/** Longest unary run of a Rice code before it escapes to gamma. */
const ESCAPE = 16;
/** The adaptive Rice parameter's memory: past this many values the running sum is halved. */
const RESET = 32;

const MODE = { dense: 0, sparse: 1, raw: 2 } as const;

/** A dense form is tried only while the lattice has at most this many points per bin (beyond it the zeros cost more than the gaps). */
const DENSE_MAX_POINTS_PER_BIN = 64;

/** A histogram as read (a replica's documents are read-only). */
type HistogramOf = { readonly m: readonly number[]; readonly c: readonly number[] };

const zigzag = (v: number) => (v >= 0 ? 2 * v : -2 * v - 1);
const unzigzag = (z: number) => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);

function gcd(a: number, b: number): number {
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y) [x, y] = [y, x % y];
  return x;
}

/** A mark as an integer of 1/SCALE, or null when it is not exactly one (off the 4-decimal grid, or too large). */
function onGrid(mark: number): number | null {
  const int = Math.round(mark * SCALE);
  return Number.isSafeInteger(int) && int / SCALE === mark ? int : null;
}

/** Bits written most significant first; numbers are handled arithmetically (they may exceed 32 bits). */
class BitWriter {
  private readonly bits: number[] = [];

  get length() {
    return this.bits.length;
  }

  write(value: number, width: number) {
    for (let i = width - 1; i >= 0; i--) this.bits.push(Math.floor(value / 2 ** i) % 2);
  }

  /** Elias gamma of v ≥ 0 (as v + 1). */
  gamma(v: number) {
    const x = v + 1;
    let width = 1;
    while (2 ** width <= x) width++;
    this.write(0, width - 1);
    this.write(x, width);
  }

  /** Rice code of v ≥ 0 with parameter k; a quotient of ESCAPE or more escapes to gamma. */
  rice(v: number, k: number) {
    const q = Math.floor(v / 2 ** k);
    if (q >= ESCAPE) {
      for (let i = 0; i < ESCAPE; i++) this.bits.push(1);
      this.gamma(v);
      return;
    }
    for (let i = 0; i < q; i++) this.bits.push(1);
    this.bits.push(0);
    this.write(v % 2 ** k, k);
  }

  float(v: number) {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, v);
    this.write(view.getUint32(0), 32);
    this.write(view.getUint32(4), 32);
  }

  toString() {
    let out = '';
    for (let i = 0; i < this.bits.length; i += 6) {
      let v = 0;
      for (let j = 0; j < 6; j++) v = v * 2 + (this.bits[i + j] ?? 0);
      out += ALPHABET[v];
    }
    return out;
  }
}

class BitReader {
  private pos = 0;
  private readonly values: number[];

  constructor(text: string) {
    this.values = [...text].map((ch) => {
      const v = VALUE_OF.get(ch);
      if (v === undefined) throw new RangeError('score histogram: not base64url');
      return v;
    });
  }

  bit(): number {
    const i = Math.floor(this.pos / 6);
    if (i >= this.values.length) throw new RangeError('score histogram: truncated');
    const b = (this.values[i]! >> (5 - (this.pos % 6))) & 1;
    this.pos++;
    return b;
  }

  read(width: number) {
    let v = 0;
    for (let i = 0; i < width; i++) v = v * 2 + this.bit();
    return v;
  }

  gamma() {
    let zeros = 0;
    while (this.bit() === 0) if (++zeros > 53) throw new RangeError('score histogram: number too large');
    return 2 ** zeros + this.read(zeros) - 1;
  }

  rice(k: number) {
    let q = 0;
    while (q < ESCAPE && this.bit() === 1) q++;
    if (q === ESCAPE) return this.gamma();
    return q * 2 ** k + this.read(k);
  }

  float() {
    const view = new DataView(new ArrayBuffer(8));
    view.setUint32(0, this.read(32));
    view.setUint32(4, this.read(32));
    return view.getFloat64(0);
  }
}

/** The Rice parameter that follows the mean of the values coded so far (encoder and decoder keep the same state). */
class Adaptive {
  private sum = 4;
  private n = 1;

  get k() {
    let k = 0;
    while (this.n * 2 ** k < this.sum) k++;
    return k;
  }

  saw(v: number) {
    this.sum += v;
    this.n++;
    if (this.n >= RESET) {
      this.sum = Math.floor(this.sum / 2);
      this.n = Math.floor(this.n / 2);
    }
  }
}

/** Counts as differences from the previous count, each Rice-coded with its own adaptive parameter. */
class CountWriter {
  private previous = 0;
  private readonly adapt = new Adaptive();

  constructor(private readonly out: BitWriter) {}

  put(count: number) {
    const z = zigzag(count - this.previous);
    this.out.rice(z, this.adapt.k);
    this.adapt.saw(z);
    this.previous = count;
  }
}

class CountReader {
  private previous = 0;
  private readonly adapt = new Adaptive();

  constructor(private readonly from: BitReader) {}

  next() {
    const z = this.from.rice(this.adapt.k);
    this.adapt.saw(z);
    this.previous += unzigzag(z);
    return this.previous;
  }
}

type Lattice = { ints: number[]; unit: number };

/** The marks as integers of 1/SCALE and the lattice step between them; null when one is off the grid. */
function latticeOf(h: HistogramOf): Lattice | null {
  const ints: number[] = [];
  for (const m of h.m) {
    const int = onGrid(m);
    if (int === null) return null;
    ints.push(int);
  }
  let unit = 0;
  for (let i = 1; i < ints.length; i++) unit = gcd(unit, ints[i]! - ints[0]!);
  return { ints, unit: unit || 1 };
}

function writeOrigin(w: BitWriter, { ints, unit }: Lattice) {
  const q = Math.floor(ints[0]! / unit);
  w.gamma(unit);
  w.gamma(zigzag(q));
  w.gamma(ints[0]! - q * unit);
}

function readOrigin(r: BitReader) {
  const unit = r.gamma();
  const q = unzigzag(r.gamma());
  return { unit, first: q * unit + r.gamma() };
}

function dense(h: HistogramOf, lattice: Lattice): BitWriter {
  const { ints, unit } = lattice;
  const w = new BitWriter();
  w.gamma(MODE.dense);
  writeOrigin(w, lattice);
  const span = (ints.at(-1)! - ints[0]!) / unit;
  w.gamma(span);
  const counts = new CountWriter(w);
  let bin = 0;
  for (let step = 0; step <= span; step++) {
    const here = ints[bin] === ints[0]! + step * unit;
    counts.put(here ? h.c[bin++]! : 0);
  }
  return w;
}

function sparse(h: HistogramOf, lattice: Lattice): BitWriter {
  const { ints, unit } = lattice;
  const w = new BitWriter();
  w.gamma(MODE.sparse);
  writeOrigin(w, lattice);
  w.gamma(ints.length - 1);
  const counts = new CountWriter(w);
  const gaps = new Adaptive();
  for (let i = 0; i < ints.length; i++) {
    if (i > 0) {
      const gap = (ints[i]! - ints[i - 1]!) / unit - 1;
      w.rice(gap, gaps.k);
      gaps.saw(gap);
    }
    counts.put(h.c[i]!);
  }
  return w;
}

function raw(h: HistogramOf): BitWriter {
  const w = new BitWriter();
  w.gamma(MODE.raw);
  w.gamma(h.m.length - 1);
  const counts = new CountWriter(w);
  for (let i = 0; i < h.m.length; i++) {
    w.float(h.m[i]!);
    counts.put(h.c[i]!);
  }
  return w;
}

/**
 * A histogram (marks ascending, distinct; counts ≥ 1) as one base64url string, exactly; the
 * empty histogram is the empty string.
 */
export function encodeHistogram(h: HistogramOf): string {
  if (h.m.length === 0) return '';
  const lattice = latticeOf(h);
  if (!lattice) return raw(h).toString();
  const points = (lattice.ints.at(-1)! - lattice.ints[0]!) / lattice.unit + 1;
  const spread = sparse(h, lattice);
  if (points > DENSE_MAX_POINTS_PER_BIN * h.m.length) return spread.toString();
  const packed = dense(h, lattice);
  return (packed.length <= spread.length ? packed : spread).toString();
}

/** The histogram an encodeHistogram string holds; throws a RangeError on a string it did not write. */
export function decodeHistogram(text: string): Histogram {
  if (text === '') return { m: [], c: [] };
  const r = new BitReader(text);
  const mode = r.gamma();
  const m: number[] = [];
  const c: number[] = [];
  const counts = new CountReader(r);
  if (mode === MODE.dense) {
    const { unit, first } = readOrigin(r);
    const span = r.gamma();
    for (let step = 0; step <= span; step++) {
      const count = counts.next();
      if (count === 0) continue;
      m.push((first + step * unit) / SCALE);
      c.push(count);
    }
  } else if (mode === MODE.sparse) {
    const { unit, first } = readOrigin(r);
    const bins = r.gamma() + 1;
    const gaps = new Adaptive();
    let at = first;
    for (let i = 0; i < bins; i++) {
      if (i > 0) {
        const gap = r.rice(gaps.k);
        gaps.saw(gap);
        at += (gap + 1) * unit;
      }
      m.push(at / SCALE);
      c.push(counts.next());
    }
  } else if (mode === MODE.raw) {
    const bins = r.gamma() + 1;
    for (let i = 0; i < bins; i++) {
      m.push(r.float());
      c.push(counts.next());
    }
  } else {
    throw new RangeError('score histogram: unknown form');
  }
  if (c.some((n) => n < 1)) throw new RangeError('score histogram: a count below 1');
  return { m, c };
}

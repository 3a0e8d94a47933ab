/*
 * The compact, exact form of a score histogram on the wire (docs/live-tests.md "The compact
 * form"): one base64url string per histogram, a few hundred bytes for a set taken
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

/** Marks are integers of this fraction (scoring.ts round: 4 decimals). */
const SCALE = 10_000;

/** Longest unary run of a Rice code before it escapes to gamma. */
const ESCAPE = 16;
/** The adaptive Rice parameter's memory: past this many values the running sum is halved. */
const RESET = 32;

const MODE = { dense: 0, sparse: 1, raw: 2 } as const;

/** 2 ** k for every width a field can have (looked up: `**` was the encoder's hottest spot). */
const POW2 = Float64Array.from({ length: 65 }, (_, k) => 2 ** k);

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

/** Widest field written or read in one go (the accumulators stay within 31 bits). */
const CHUNK = 24;

/**
 * Bits written most significant first, six to a character as they come. Fields wider than CHUNK
 * (a 64-bit float's halves, an outlier's gamma code) are split arithmetically: numbers may exceed
 * 32 bits.
 */
class BitWriter {
  private acc = 0;
  private pending = 0;
  private text = '';
  /** Bits written. */
  length = 0;

  private small(value: number, width: number) {
    this.acc = (this.acc << width) | value;
    this.pending += width;
    this.length += width;
    while (this.pending >= 6) {
      this.pending -= 6;
      this.text += ALPHABET[(this.acc >>> this.pending) & 63];
    }
    this.acc &= (1 << this.pending) - 1;
  }

  write(value: number, width: number) {
    if (width > CHUNK) {
      const low = 2 ** CHUNK;
      this.write(Math.floor(value / low), width - CHUNK);
      this.small(value % low, CHUNK);
    } else if (width > 0) {
      this.small(value, width);
    }
  }

  /** Elias gamma of v ≥ 0 (as v + 1): the width of v + 1 less one in zeros, then v + 1. */
  gamma(v: number) {
    const x = v + 1;
    let width = 1;
    while (2 ** width <= x) width++;
    this.write(0, width - 1);
    this.write(x, width);
  }

  /** Rice code of v ≥ 0 with parameter k: the quotient in ones and a zero, then k bits; a quotient of ESCAPE or more escapes to gamma. */
  rice(v: number, k: number) {
    const q = Math.floor(v / POW2[k]!);
    if (q >= ESCAPE) {
      this.write(2 ** ESCAPE - 1, ESCAPE);
      this.gamma(v);
      return;
    }
    this.small(((1 << q) - 1) << 1, q + 1);
    this.write(v - q * POW2[k]!, k);
  }

  float(v: number) {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, v);
    this.write(view.getUint32(0), 32);
    this.write(view.getUint32(4), 32);
  }

  toString() {
    return this.pending > 0 ? this.text + ALPHABET[(this.acc << (6 - this.pending)) & 63] : this.text;
  }
}

/** The value of each base64url character by its code, −1 for any other. */
const VALUE_OF = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE_OF[ALPHABET.charCodeAt(i)] = i;

class BitReader {
  private acc = 0;
  private pending = 0;
  private next = 0;

  constructor(private readonly text: string) {}

  private small(width: number) {
    while (this.pending < width) {
      if (this.next >= this.text.length) throw new RangeError('score histogram: truncated');
      const code = this.text.charCodeAt(this.next++);
      const v = code < 128 ? VALUE_OF[code]! : -1;
      if (v < 0) throw new RangeError('score histogram: not base64url');
      this.acc = (this.acc << 6) | v;
      this.pending += 6;
    }
    this.pending -= width;
    const value = (this.acc >>> this.pending) & ((1 << width) - 1);
    this.acc &= (1 << this.pending) - 1;
    return value;
  }

  read(width: number): number {
    if (width > CHUNK) {
      const high = this.read(width - CHUNK);
      return high * 2 ** CHUNK + this.small(CHUNK);
    }
    return width > 0 ? this.small(width) : 0;
  }

  gamma() {
    let zeros = 0;
    while (this.small(1) === 0) if (++zeros > 53) throw new RangeError('score histogram: number too large');
    return 2 ** zeros + this.read(zeros) - 1;
  }

  rice(k: number) {
    let q = 0;
    while (q < ESCAPE && this.small(1) === 1) q++;
    if (q === ESCAPE) return this.gamma();
    return q * POW2[k]! + this.read(k);
  }

  float() {
    const view = new DataView(new ArrayBuffer(8));
    view.setUint32(0, this.read(32));
    view.setUint32(4, this.read(32));
    return view.getFloat64(0);
  }

  /** The string ends here: what is left is the last character's padding, all zeros. */
  end() {
    if (this.next !== this.text.length || this.acc !== 0) throw new RangeError('score histogram: trailing data');
  }
}

/** The Rice parameter that follows the mean of the values coded so far (encoder and decoder keep the same state). */
class Adaptive {
  private sum = 4;
  private n = 1;

  get k() {
    let k = 0;
    while (this.n * POW2[k]! < this.sum) k++;
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
  if (unit < 1) throw new RangeError('score histogram: no lattice step');
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
    // Every lattice point costs at least a bit: a longer span is no string of ours (and would loop for long).
    if (span >= text.length * 6) throw new RangeError('score histogram: truncated');
    for (let step = 0; step <= span; step++) {
      const count = counts.next();
      if (count === 0) continue;
      m.push((first + step * unit) / SCALE);
      c.push(count);
    }
  } else if (mode === MODE.sparse) {
    const { unit, first } = readOrigin(r);
    const bins = r.gamma() + 1;
    if (bins > text.length * 6) throw new RangeError('score histogram: truncated');
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
    if (bins > text.length * 6) throw new RangeError('score histogram: truncated');
    for (let i = 0; i < bins; i++) {
      m.push(r.float());
      c.push(counts.next());
    }
  } else {
    throw new RangeError('score histogram: unknown form');
  }
  r.end();
  if (c.length === 0 || c.some((n) => n < 1)) throw new RangeError('score histogram: a count below 1');
  return { m, c };
}

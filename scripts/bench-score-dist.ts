/**
 * `npm run bench:score-dist` (docs/benchmarks.md "bench:score-dist", docs/live-tests.md "Bytes"):
 * how many bytes a set's score distribution costs on the wire. Not timed: it builds
 * distributions of simulated learners, exactly as the server builds them (sync-protocol
 * score-dist.ts distributionOf), turns them into the documents the pull sends (sync.docs.ts: the
 * compact form, and the two lists an app of protocol 1.0 gets), and prints for each the JSON,
 * its gzip (level 6, as the server's), its brotli (quality 5, as the server's), and the pull's
 * answer with that one document as the server sends it: as it is below COMPRESS_MIN_BYTES,
 * brotli above. Then which part costs what, an estimate of the least any exact form could take
 * (the Poisson noise of the counts: what a coder that knew the true curve would still need for
 * them, before saying where the bins are), and, for the server's cache of encoded documents, how
 * long encoding and decoding one takes (informative, no target).
 *
 * The learners (seeded, so every run prints the same): an ability each, a skill per section
 * around it, a difficulty per question; a learner skips a question more often the harder it is
 * for them, and answers it right with a probability that falls with its difficulty. For the SSC
 * CGL shape (100 questions in four sections of 25, +2/−0.5) this gives totals from about −10 to
 * 198, mean ~90, sd ~45: every learner type from guessing to near full marks.
 *
 *   npm run bench:score-dist
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { distributionOf, type Histogram, type RankedMarks } from '@pm/protocol/score-dist';
import { decodeHistogram, encodeHistogram } from '@pm/protocol/score-dist-code';
import { round } from '@pm/protocol/scoring';
import { COMPRESS_MIN_BYTES } from '../server/src/lib/compression';
import { scoreDistDoc, scoreDistListsDoc } from '../server/src/modules/sync/sync.docs';
import { mulberry32 } from '@pm/protocol/seeded-random';

/** The target for the brief's case: 10,000 learners, 100 questions, gzip. */
const TARGET_GZIP_BYTES = 400;

type Shape = { name: string; learners: number; sections: string[]; perSection: number; mpq: number; nm: number };

const SSC = ['English Comprehension', 'General Awareness', 'General Intelligence and Reasoning', 'Quantitative Aptitude'];
const SHAPES: Shape[] = [
  { name: '100 q in 4 sections, +2/−0.5, 10,000 learners', learners: 10_000, sections: SSC, perSection: 25, mpq: 2, nm: 0.5 },
  { name: '100 q in 4 sections, +2/−0.5, 500 learners', learners: 500, sections: SSC, perSection: 25, mpq: 2, nm: 0.5 },
  { name: '100 q in 4 sections, +4/−1, 10,000 learners', learners: 10_000, sections: ['Biology', 'Chemistry', 'Physics', 'Zoology'], perSection: 25, mpq: 4, nm: 1 },
  { name: '100 q, no sections, +4/−1, 10,000 learners', learners: 10_000, sections: [], perSection: 100, mpq: 4, nm: 1 },
  { name: '25 q, no sections, +1/−0.25, 500 learners', learners: 500, sections: [], perSection: 25, mpq: 1, nm: 0.25 },
  { name: '10 q, no sections, +1, 30 learners', learners: 30, sections: [], perSection: 10, mpq: 1, nm: 0 },
];


function learnersOf(shape: Shape): RankedMarks[] {
  const random = mulberry32(44);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
  const parts = shape.sections.length > 0 ? shape.sections : ['wos'];
  const difficulty = parts.map(() => Array.from({ length: shape.perSection }, normal));
  return Array.from({ length: shape.learners }, () => {
    const ability = normal();
    const marks: Record<string, number> = { wos: 0 };
    let total = 0;
    parts.forEach((part, p) => {
      const skill = ability + 0.6 * normal();
      let got = 0;
      for (const d of difficulty[p]!) {
        if (random() > sigmoid(1.2 + 0.8 * skill - 0.6 * d)) continue;
        got += random() < sigmoid(0.4 + 1.1 * (skill - d)) ? shape.mpq : -shape.nm;
      }
      marks[part] = round(got);
      total += got;
    });
    return { totalMarks: round(total), marks };
  });
}

const bytes = (text: string) => Buffer.byteLength(text);
const gzip = (text: string) => gzipSync(text, { level: 6 }).length;
const brotli = (text: string) =>
  brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }).length;
/** A pull's answer with this one document, as the server sends it (lib/compression.ts). */
function asReplicated(doc: unknown) {
  const body = JSON.stringify({ documents: [doc], checkpoint: { rev: 1_234_567 } });
  return bytes(body) < COMPRESS_MIN_BYTES ? `${bytes(body)} (as is)` : `${brotli(body)} (br)`;
}
const sizes = (doc: unknown) => {
  const json = JSON.stringify(doc);
  return { json: bytes(json), gzip: gzip(json), br: brotli(json), wire: asReplicated(doc) };
};

/** Entropy of a Poisson count of mean λ, in bits. */
function poissonBits(lambda: number) {
  if (lambda <= 0) return 0;
  let bits = 0;
  let p = Math.exp(-lambda);
  for (let k = 0; k < lambda + 12 * Math.sqrt(lambda) + 20; k++) {
    if (p > 0) bits -= p * Math.log2(p);
    p *= lambda / (k + 1);
  }
  return bits;
}
const noiseBytes = (h: Histogram) => h.c.reduce((sum, c) => sum + poissonBits(c), 0) / 8;

const row = (cells: (string | number)[]) => console.log(`| ${cells.join(' | ')} |`);

const built = SHAPES.map((shape) => {
  const dist = distributionOf(learnersOf(shape));
  const stored = { qsid: 'qs-ssc-cgl-tier1-mock-07', ...dist, at: 1_795_000_200_000, deleted: false, rev: 1_234_567 };
  for (const h of [dist.t, ...Object.values(dist.s)]) {
    if (JSON.stringify(decodeHistogram(encodeHistogram(h))) !== JSON.stringify(h)) throw new Error(`${shape.name}: the encoding is not exact`);
  }
  return { shape, dist, lists: scoreDistListsDoc(stored), compact: scoreDistDoc(stored) };
});

console.log('## What a distribution costs, in bytes (JSON / gzip / brotli / a pull with it)\n');
row(['set and learners', 'total bins', 'as two lists (protocol 1.0)', 'compact', 'compact, totals only', 'noise of the counts (est.)']);
row(['---', '---', '---', '---', '---', '---']);
for (const { shape, dist, lists, compact } of built) {
  const l = sizes(lists);
  const c = sizes(compact);
  const totalsOnly = sizes({ ...compact, s: {} });
  const least = noiseBytes(dist.t) + Object.values(dist.s).reduce((sum, h) => sum + noiseBytes(h), 0);
  row([
    shape.name,
    dist.t.m.length,
    `${l.json} / ${l.gzip} / ${l.br} / ${l.wire}`,
    `${c.json} / **${c.gzip}** / ${c.br} / ${c.wire}`,
    `${totalsOnly.json} / ${totalsOnly.gzip} / ${totalsOnly.br}`,
    `${Math.round(least)} (totals ${Math.round(noiseBytes(dist.t))})`,
  ]);
}

const main = built[0]!;
console.log(`\n## Which part costs what: ${main.shape.name}\n`);
const part = (label: string, value: unknown) => {
  const json = JSON.stringify(value);
  row([label, bytes(json), gzip(json)]);
};
row(['part', 'JSON bytes', 'gzip alone']);
row(['---', '---', '---']);
part('two lists: total marks `t.m`', main.dist.t.m);
part('two lists: counts `t.c`', main.dist.t.c);
part('two lists: the sections `s` (names included)', main.dist.s);
part('section names', Object.keys(main.dist.s));
part('compact: `t`', main.compact.t);
part('compact: the sections `s` (names included)', main.compact.s);
part('the rest (`id`, `n`, `at`, `_deleted`)', { id: main.compact.id, n: main.compact.n, at: main.compact.at, _deleted: false });

const histograms = [main.dist.t, ...Object.values(main.dist.s)];
const codes = histograms.map((h) => encodeHistogram(h));
/** Median time of `run` over 200 runs, in ms. */
function medianMs(run: () => void) {
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[100]!;
}
const encodeMs = medianMs(() => histograms.forEach((h) => encodeHistogram(h)));
const decodeMs = medianMs(() => codes.forEach((c) => decodeHistogram(c)));
console.log(`\nOne document's ${histograms.length} histograms: encoded in ${encodeMs.toFixed(3)} ms, decoded in ${decodeMs.toFixed(3)} ms (median of 200).`);

const sectionsGzip = gzip(JSON.stringify(main.compact));
const totalsGzip = gzip(JSON.stringify({ ...main.compact, s: {} }));
console.log(
  `\nTarget: the 10,000-learner, 100-question distribution ≤ ${TARGET_GZIP_BYTES} bytes gzipped: ${sectionsGzip} with its four section histograms ` +
    `(${sectionsGzip <= TARGET_GZIP_BYTES ? 'met' : 'not met'}), ${totalsGzip} with the totals alone (${totalsGzip <= TARGET_GZIP_BYTES ? 'met' : 'not met'}).`,
);

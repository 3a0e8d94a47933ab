/**
 * What each step of the submission path costs, from a V8 CPU profile of the server
 * (`BENCH_PROFILE=<dir> npm run bench:exam`, docs/benchmarks.md "bench:exam — server"):
 *
 *   npx tsx scripts/profile-steps.ts <file.cpuprofile> [submissions]
 *
 * Every sample is given to the innermost frame of the stack that belongs to a step (a file or a
 * function of ours, or a library that only that step uses), so the time of SQLite, JSON and
 * zod counts for the step that called them; samples under no step are named by their leaf
 * (the HTTP server, garbage collection, idle). With the number of submissions the profile
 * covered, each step is also printed in µs per submission.
 */
import { readFileSync } from 'node:fs';

type Frame = { functionName: string; url: string };
type Node = { id: number; callFrame: Frame; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

/** Steps, innermost first where they nest: the first rule a frame matches names its step. */
const STEPS: { step: string; test: (f: Frame) => boolean }[] = [
  { step: 'entitlement counting', test: (f) => f.url.includes('/entitlements/entitlements.service') },
  { step: 'revision numbers', test: (f) => f.url.includes('/lib/revision') },
  { step: 'scoring (compute)', test: (f) => f.url.includes('sync-protocol/src/scoring') },
  { step: 'scoring (result insert, first-attempt test)', test: (f) => f.url.includes('/results/results.service') },
  { step: 'receipt hash', test: (f) => f.url.includes('sync-protocol/src/receipt') },
  { step: 'push hooks (result-ready)', test: (f) => f.url.includes('/push/push.service') },
  { step: 'activity log', test: (f) => f.url.includes('/lib/activity') },
  { step: 'session and person (auth)', test: (f) => f.url.includes('/lib/sessions') || f.url.includes('/middleware/auth') || f.url.includes('/lib/jwt') || f.url.includes('/jose/') },
  { step: 'push: quota, checks, attempt insert', test: (f) => f.url.includes('/sync/sync.service') },
  { step: 'commit (group commit, COMMIT)', test: (f) => f.url.includes('/lib/group-commit') || f.url.includes('/db/transaction') },
  { step: 'body parse and validation', test: (f) => f.url.includes('/lib/http') || f.url.includes('/zod/') || f.url.includes('/sync/sync.routes') },
  { step: 'load shedding, headers, logging', test: (f) => f.url.includes('/lib/overload') || f.url.includes('/lib/security-headers') || f.url.includes('/lib/logger') || f.url.includes('/pino') },
  { step: 'HTTP (node, hono)', test: (f) => f.url.includes('/hono/') || f.url.includes('@hono') || f.url.startsWith('node:') || f.url.includes('/server/src/serve') },
];

const [file, submissionsArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: tsx scripts/profile-steps.ts <file.cpuprofile> [submissions]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const stepOf = new Map<number, string>();
function step(id: number): string {
  const known = stepOf.get(id);
  if (known) return known;
  let name: string | undefined;
  // The bench's floor runs in the same process: its samples are its own, whatever they call.
  for (let at: number | undefined = id; at !== undefined && !name; at = parent.get(at)) {
    if (byId.get(at)!.callFrame.url.includes('scripts/bench-exam-floor')) name = 'the floor (bench-exam-floor.ts)';
  }
  for (let at: number | undefined = id; at !== undefined && !name; at = parent.get(at)) {
    const f = byId.get(at)!.callFrame;
    name = STEPS.find((s) => s.test(f))?.step;
  }
  if (!name) {
    const leaf = byId.get(id)!.callFrame.functionName;
    name = leaf === '(idle)' ? 'idle' : leaf === '(garbage collector)' ? 'garbage collection' : leaf === '(program)' ? 'V8 and native, no JS frame' : 'other';
  }
  stepOf.set(id, name);
  return name;
}

const total = new Map<string, number>();
let busy = 0;
profile.samples.forEach((id, i) => {
  const us = profile.timeDeltas[i] ?? 0;
  const s = step(id);
  total.set(s, (total.get(s) ?? 0) + us);
  if (s !== 'idle') busy += us;
});
const submissions = Number(submissionsArg ?? 0);
console.log(`${file}: ${(busy / 1000).toFixed(0)} ms busy${submissions ? `, ${submissions} submissions` : ''}\n`);
for (const [s, us] of [...total].sort((a, b) => b[1] - a[1])) {
  if (s === 'idle') continue;
  const per = submissions ? `  ${(us / submissions).toFixed(1).padStart(7)} µs per submission` : '';
  console.log(`${s.padEnd(46)} ${((us / busy) * 100).toFixed(1).padStart(5)} %${per}`);
}

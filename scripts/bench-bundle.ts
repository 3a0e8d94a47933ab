/**
 * `npm run bench:bundle` (issue: first-visit JavaScript ≤ 130 kB gzip; admin, editor and exam
 * code lazy). Runs the production build, then works out from dist/index.html and the Vite
 * manifest exactly which files a first visit to `/` downloads:
 *
 * 1. the entry's static graph: the entry script and the modulepreload / stylesheet links of
 *    index.html, followed recursively through each chunk's static `import`s (the manifest's
 *    `imports`, cross-checked against the import statements in the chunk itself);
 * 2. what the index route requests as soon as the router starts: its lazy page module (with its
 *    own static imports and CSS) and the page's English namespace file.
 *
 * It prints the gzip size (zlib level 9, each file on its own, as a server would send it) of both
 * sets and of every other (lazy) chunk, and PASS/FAIL against the budget. The verdict is on the
 * whole first visit (1 + 2): everything a visitor to `/` downloads before the page is usable;
 * `--entry-only` judges (1) alone. kB = 1000 bytes,
 * as Vite prints them. Fonts are listed apart: the Devanagari faces carry a unicode-range and
 * download only when Hindi text is on screen.
 *
 *   npm run bench:bundle                 build, then measure
 *   npm run bench:bundle -- --no-build   measure the dist/ that is there
 *   npm run bench:bundle -- --entry-only the verdict on the entry's static graph alone
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_JS = 130_000;
/**
 * What the index route (`/`) loads on top of the entry: keep in step with app/router.tsx (its
 * `index: true` route) and the namespace the home page reads. Manifest keys are relative to the
 * Vite root (client/).
 */
const INDEX_ROUTE_MODULES = ['src/features/home/components/home-page.tsx', 'src/locales/en/home.json'];

type ManifestChunk = {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  assets?: string[];
};
type Manifest = Record<string, ManifestChunk>;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const strict = !process.argv.includes('--entry-only');
const dist = path.join(root, 'dist');

if (!process.argv.includes('--no-build')) {
  console.log('Building the client (vite build) …');
  const r = spawnSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const manifestFile = path.join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestFile)) {
  console.error(`${path.relative(root, manifestFile)} is missing: build with build.manifest: true (vite.config.ts).`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
const byFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, { key, chunk }]));

const gzipCache = new Map<string, { raw: number; gzip: number }>();
function sizeOf(file: string) {
  let s = gzipCache.get(file);
  if (!s) {
    const bytes = readFileSync(path.join(dist, file));
    s = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    gzipCache.set(file, s);
  }
  return s;
}

/** The static imports written in a built chunk (`import{a}from"./x.js"`, `import"./y.js"`). */
function staticImportsInCode(file: string): string[] {
  const code = readFileSync(path.join(dist, file), 'utf8');
  const out = new Set<string>();
  const re = /(?:^|[;}\s])import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+)["']/g;
  for (const m of code.matchAll(re)) {
    const spec = m[1];
    if (spec?.startsWith('.')) out.add(path.posix.join(path.posix.dirname(file), spec));
  }
  return [...out];
}

const mismatches: string[] = [];
/** The chunk and everything it imports statically, with their CSS. */
function closure(startFiles: string[], seen = new Set<string>()): { js: Set<string>; css: Set<string> } {
  const js = new Set<string>();
  const css = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (file.endsWith('.css')) {
      css.add(file);
      return;
    }
    if (!file.endsWith('.js')) return;
    js.add(file);
    const entry = byFile.get(file);
    const fromManifest = (entry?.chunk.imports ?? []).map((k) => manifest[k]?.file).filter((f): f is string => Boolean(f));
    const fromCode = staticImportsInCode(file);
    const a = [...fromManifest].sort().join(' ');
    const b = [...fromCode].sort().join(' ');
    if (a !== b) mismatches.push(`${file}: manifest imports [${a}] but the code imports [${b}]`);
    for (const f of new Set([...fromManifest, ...fromCode])) visit(f);
    for (const c of entry?.chunk.css ?? []) visit(c);
  };
  startFiles.forEach(visit);
  return { js, css };
}

// 1. index.html: the entry script, modulepreload links and stylesheets, in document order.
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const htmlFiles: string[] = [];
for (const m of html.matchAll(/<(script|link)\b([^>]*)>/g)) {
  const attrs = m[2] ?? '';
  const url = /\b(?:src|href)="([^"]+)"/.exec(attrs)?.[1];
  if (!url || /^(?:https?:)?\/\//.test(url)) continue;
  const isModule = m[1] === 'script' && /type="module"/.test(attrs);
  const isPreload = m[1] === 'link' && /rel="modulepreload"/.test(attrs);
  const isStyle = m[1] === 'link' && /rel="stylesheet"/.test(attrs);
  if (isModule || isPreload || isStyle) htmlFiles.push(url.replace(/^\//, ''));
}
const seen = new Set<string>();
const entry = closure(htmlFiles, seen);

// 2. The index route's lazy modules, requested while the shell first renders.
const routeStart: string[] = [];
const missingRouteModules: string[] = [];
for (const key of INDEX_ROUTE_MODULES) {
  const chunk = manifest[key];
  if (chunk) routeStart.push(chunk.file);
  else missingRouteModules.push(key);
}
const route = closure(routeStart, seen);

const kB = (n: number) => `${(n / 1000).toFixed(2)} kB`;
const label = (file: string) => {
  const e = byFile.get(file);
  return e?.chunk.src ?? e?.chunk.name ?? '';
};
function table(title: string, files: Iterable<string>) {
  const list = [...files].map((f) => ({ f, ...sizeOf(f) })).sort((x, y) => y.gzip - x.gzip);
  console.log(`\n${title}`);
  for (const r of list) console.log(`  ${r.f.padEnd(48)} ${kB(r.raw).padStart(11)} ${kB(r.gzip).padStart(11)} gzip  ${label(r.f)}`);
  const raw = list.reduce((s, r) => s + r.raw, 0);
  const gzip = list.reduce((s, r) => s + r.gzip, 0);
  console.log(`  ${'total'.padEnd(48)} ${kB(raw).padStart(11)} ${kB(gzip).padStart(11)} gzip`);
  return gzip;
}

console.log('\nFirst visit to / (files: raw, gzip level 9)');
const entryJs = table('Entry, static graph of index.html — JS', entry.js);
const entryCss = table('Entry, static graph of index.html — CSS', entry.css);
const routeJs = table("Index route '/', loaded at once — JS", route.js);
const routeCss = route.css.size ? table("Index route '/', loaded at once — CSS", route.css) : 0;

const firstVisit = new Set([...entry.js, ...entry.css, ...route.js, ...route.css]);
const lazyJs = readdirSync(path.join(dist, 'assets'))
  .map((f) => `assets/${f}`)
  .filter((f) => f.endsWith('.js') && !firstVisit.has(f));
table('Lazy chunks (fetched when a screen, a menu or the drawer needs them) — JS', lazyJs);
const lazyCss = readdirSync(path.join(dist, 'assets'))
  .map((f) => `assets/${f}`)
  .filter((f) => f.endsWith('.css') && !firstVisit.has(f));
if (lazyCss.length) table('Lazy CSS', lazyCss);
const fonts = readdirSync(path.join(dist, 'assets')).filter((f) => /\.(woff2?|ttf)$/.test(f));
if (fonts.length) console.log(`\nFonts (downloaded only when their unicode-range is on screen): ${fonts.length} files, ${fonts.filter((f) => f.endsWith('.woff2')).length} woff2`);

if (missingRouteModules.length) console.warn(`\nnote: not in the manifest (no such lazy module): ${missingRouteModules.join(', ')}`);
if (mismatches.length) {
  console.warn('\nwarning: the manifest and the chunks disagree about static imports (both were followed):');
  for (const m of mismatches) console.warn(`  ${m}`);
}

const whole = entryJs + routeJs;
const measured = strict ? whole : entryJs;
const verdict = measured <= BUDGET_JS ? 'PASS' : 'FAIL';
const over = (n: number) => (n <= BUDGET_JS ? `${kB(BUDGET_JS - n)} under` : `${kB(n - BUDGET_JS)} over`);
console.log(`\nFirst-visit CSS: ${kB(entryCss + routeCss)} gzip`);
console.log(`Entry (static graph of index.html) JS: ${kB(entryJs)} gzip — ${over(entryJs)} the budget`);
console.log(`Whole first visit to / (entry + index route ${kB(routeJs)}) JS: ${kB(whole)} gzip — ${over(whole)} the budget`);
console.log(
  `\nBudget ${kB(BUDGET_JS)} gzip on ${strict ? 'the whole first visit to / (entry + index route)' : "the entry's static graph (--entry-only)"}: ${kB(measured)} ${verdict}`,
);
if (verdict === 'FAIL') process.exitCode = 1;

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PageData } from '@pm/protocol/page-data';

/**
 * Preload hints for the first screens a newcomer opens (docs/benchmarks.md "bench:lighthouse"). index.html names only the
 * entry chunk; the page's own chunk, the chunks it imports, its stylesheets and its strings are
 * found by the router after the entry has run, and each of those steps costs a round trip on a
 * phone's connection (about 150 ms on slow 4G, more on 3G). The server knows the build: for these
 * routes it answers index.html with a `Link` header that names those files, so the browser
 * fetches them while the entry is still on its way. Nothing else changes: a file named here that
 * the page does not ask for is only downloaded, never run, and the service worker serves every
 * later visit from its cache (without this header).
 *
 * The table names the modules by their source path, as Vite's manifest (`dist/.vite/manifest.json`)
 * keys them; the router (client/src/app/router.tsx) loads the same modules for these routes.
 * English strings only: English is the default language, and a Hindi reader's stored choice is
 * not known to the server (the Hindi file is fetched as before).
 */
/**
 * The pages the build draws in advance (scripts/vite-plugin-prerender.ts): each route's markup
 * for a first visit (English, not signed in) in its own HTML file beside index.html, which the
 * server answers the route with (lib/client-files.ts). `anyQuery`: the page draws the same
 * whatever the query string says (the home page); otherwise only the bare address gets the file
 * (`/login?error=…` or a referral link draws more than the plain form, so the app draws it).
 */
export type PrerenderedPage = {
  path: string;
  file: string;
  anyQuery: boolean;
  /**
   * Drawn by the server on request with data of the database (lib/rendered-pages.ts): the build
   * writes the page's file as a template, its markup left at PAGE_OUTLET, and draws the page once
   * with `trial` (data of the shape the server gives it) to know that it can be drawn.
   */
  perRequest?: { trial: PageData };
  /**
   * The app starts when the visitor first reaches for the page rather than after its first paint,
   * unless the visitor needs it at once (client/src/boot/start-after-paint.ts). Such a page is not
   * inert: its links work without the app, and a press on a button made before the app has taken
   * the page over is played again once it has.
   */
  startOnInteraction?: boolean;
};
export const PRERENDERED_PAGES: readonly PrerenderedPage[] = [
  { path: '/', file: 'home.html', anyQuery: true, startOnInteraction: true },
  { path: '/login', file: 'login.html', anyQuery: false },
  // The plans are the database's, so the page is drawn when asked (and kept until they change).
  { path: '/plan', file: 'plan.html', anyQuery: false, perRequest: { trial: { plans: { success: true, data: [] } } } },
];

/** Where a per-request page's template (see PrerenderedPage) takes the page's markup. */
export const PAGE_OUTLET = '<!--pm-page-outlet-->';

type RouteFiles = {
  /** Source paths of the route's lazy modules (the page, its layout route, its strings). */
  modules: readonly string[];
  /** The largest image of the first screen, by the start of its file name (its source name). */
  image?: string;
};

// The home page's largest element, its first slide's illustration, is a data URL in the page
// itself (features/home/components/slides.ts): there is no image file to name.
const HOME: RouteFiles = {
  modules: ['src/features/home/components/home-page.tsx', 'src/locales/en/home.json'],
};

export const PRELOADED_ROUTES: Readonly<Record<string, RouteFiles>> = {
  '/': HOME,
  '/home': HOME,
  '/login': { modules: ['src/app/query-layout.tsx', 'src/features/auth/components/login-page.tsx', 'src/locales/en/auth.json'] },
  '/plan': { modules: ['src/app/query-layout.tsx', 'src/features/plans/components/plan-page.tsx', 'src/locales/en/plan.json'] },
  // The replica too (RxDB, Dexie and the replica's own code, app/replica-provider.tsx): the list
  // is read from it, and the app asks for its chunks without hints of its own (vite.config.ts,
  // modulePreload).
  '/exam-list': {
    modules: ['src/app/query-layout.tsx', 'src/features/exams/components/exam-list-page.tsx', 'src/locales/en/exam.json', 'src/locales/en/exam-integrity.json', 'src/db/learner/replica.ts'],
  },
};

/** One chunk of Vite's manifest (the fields used here). */
type ManifestChunk = { file: string; isEntry?: boolean; imports?: string[]; css?: string[]; assets?: string[] };
export type Manifest = Record<string, ManifestChunk>;

/**
 * The `Link` header value per route path, worked out from the build's manifest: each module's
 * chunk and every chunk it imports, transitively (`modulepreload`), their stylesheets
 * (`preload; as=style`) and the first screen's image (`preload; as=image`). What the entry
 * already loads (index.html's own script and its static imports) is left out. A module missing
 * from the manifest is skipped, so an older or partial build gets fewer hints, never a wrong one.
 */
export function linkHeaders(
  manifest: Manifest,
  routes: Readonly<Record<string, RouteFiles>> = PRELOADED_ROUTES,
): Map<string, string> {
  const entry = entryFiles(manifest);
  const result = new Map<string, string>();
  for (const [route, files] of Object.entries(routes)) {
    const { scripts, styles } = routeChunks(manifest, files, entry.initial);
    const image = files.image ? findImage(manifest, files.modules, files.image) : undefined;
    const links = [
      ...entry.css.map((f) => `</${f}>; rel=preload; as=style; crossorigin`),
      ...entry.js.map((f) => `</${f}>; rel=modulepreload`),
      ...(image ? [`</${image}>; rel=preload; as=image; fetchpriority=high`] : []),
      ...styles.map((f) => `</${f}>; rel=preload; as=style; crossorigin`),
      ...scripts.map((f) => `</${f}>; rel=modulepreload`),
    ];
    if (links.length) result.set(route, links.join(', '));
  }
  return result;
}

/**
 * The stylesheets `route`'s modules bring beyond the entry's, in the order the hints name them:
 * what a prerendered page writes into its head (scripts/vite-plugin-prerender.ts).
 */
export function routeStylesheets(manifest: Manifest, route: string, routes: Readonly<Record<string, RouteFiles>> = PRELOADED_ROUTES): string[] {
  const files = routes[route];
  return files ? routeChunks(manifest, files, entryFiles(manifest).initial).styles : [];
}

/**
 * Every script `route` needs, the entry first, then what the entry imports and the route's own
 * chunks: what a prerendered page asks for once it is painted (client/src/boot/start-after-
 * paint.ts, named in the page by scripts/vite-plugin-prerender.ts).
 */
export function routeScripts(manifest: Manifest, route: string, routes: Readonly<Record<string, RouteFiles>> = PRELOADED_ROUTES): string[] {
  const entry = entryFiles(manifest);
  const imported = [...entry.initial].filter((f) => f.endsWith('.js') && !entry.js.includes(f));
  const files = routes[route];
  return [...entry.js, ...imported, ...(files ? routeChunks(manifest, files, entry.initial).scripts : [])];
}

/** The entry chunks' scripts and stylesheets, and every file the entry loads by itself (its static imports). */
function entryFiles(manifest: Manifest) {
  const initial = new Set<string>();
  const addInitial = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || initial.has(chunk.file)) return;
    initial.add(chunk.file);
    for (const css of chunk.css ?? []) initial.add(css);
    for (const dep of chunk.imports ?? []) addInitial(dep);
  };
  const js: string[] = [];
  const css: string[] = [];
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.isEntry) continue;
    addInitial(key);
    js.push(chunk.file);
    css.push(...(chunk.css ?? []));
  }
  return { initial, js, css };
}

/** A route's chunks (each module's and what it imports, transitively) and their stylesheets, less what the entry loads. */
function routeChunks(manifest: Manifest, files: RouteFiles, initial: ReadonlySet<string>) {
  const scripts: string[] = [];
  const styles: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(chunk.file)) return;
    seen.add(chunk.file);
    if (!initial.has(chunk.file)) scripts.push(chunk.file);
    for (const css of chunk.css ?? []) if (!initial.has(css) && !styles.includes(css)) styles.push(css);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const module of files.modules) visit(module);
  return { scripts, styles };
}

/** The asset of one of `modules` whose file name starts with `name-` (Vite adds the content hash). */
function findImage(manifest: Manifest, modules: readonly string[], name: string): string | undefined {
  for (const module of modules) {
    const found = manifest[module]?.assets?.find((a) => path.posix.basename(a).startsWith(`${name}-`));
    if (found) return found;
  }
  return undefined;
}

/**
 * The hints for index.html in the build in `clientDir`, per route. None when the build has no
 * manifest. A prerendered page has none: it asks for its scripts once it is painted.
 */
export function readRoutePreloads(clientDir: string): Map<string, string> {
  const file = path.join(clientDir, '.vite', 'manifest.json');
  if (!existsSync(file)) return new Map();
  return linkHeaders(JSON.parse(readFileSync(file, 'utf8')) as Manifest);
}

import { existsSync } from 'node:fs';
import { expect, test } from 'vitest';
import { type Manifest, linkHeaders, PRELOADED_ROUTES, routeScripts, routeStylesheets } from './route-preloads';

/** The shape of a Vite manifest: the entry with a static import, lazy pages sharing a chunk. */
const MANIFEST: Manifest = {
  'index.html': { file: 'assets/index-E1.js', isEntry: true, imports: ['_runtime-R1.js'], css: ['assets/index-E1.css'] },
  '_runtime-R1.js': { file: 'assets/runtime-R1.js' },
  '_Button.layer-B1.js': { file: 'assets/Button.layer-B1.js', imports: ['_runtime-R1.js', '_Transition-T1.js'], css: ['assets/Button-B1.css'] },
  '_Transition-T1.js': { file: 'assets/Transition-T1.js' },
  'src/app/query-layout.tsx': { file: 'assets/query-layout-Q1.js', imports: ['_runtime-R1.js'] },
  'src/features/home/components/home-page.tsx': {
    file: 'assets/home-page-H1.js',
    imports: ['_Button.layer-B1.js'],
    css: ['assets/home-page-H1.css'],
    assets: ['assets/slide-compete-C1.svg', 'assets/slide-mock-tests-M1.svg'],
  },
  'src/locales/en/home.json': { file: 'assets/home-L1.js' },
  'src/features/auth/components/login-page.tsx': { file: 'assets/login-page-P1.js', imports: ['_Button.layer-B1.js', '_Transition-T1.js'] },
};

const ROUTES = {
  '/': { modules: ['src/features/home/components/home-page.tsx', 'src/locales/en/home.json'], image: 'slide-mock-tests' },
  '/login': { modules: ['src/app/query-layout.tsx', 'src/features/auth/components/login-page.tsx', 'src/locales/en/auth.json'] },
  '/gone': { modules: ['src/features/gone/gone-page.tsx'] },
};

test('a route names the entry first, then its image, styles and every chunk it imports, once each', () => {
  const links = linkHeaders(MANIFEST, ROUTES);
  expect(links.get('/')?.split(', ')).toEqual([
    '</assets/index-E1.css>; rel=preload; as=style; crossorigin',
    '</assets/index-E1.js>; rel=modulepreload',
    '</assets/slide-mock-tests-M1.svg>; rel=preload; as=image; fetchpriority=high',
    '</assets/home-page-H1.css>; rel=preload; as=style; crossorigin',
    '</assets/Button-B1.css>; rel=preload; as=style; crossorigin',
    '</assets/home-page-H1.js>; rel=modulepreload',
    '</assets/Button.layer-B1.js>; rel=modulepreload',
    '</assets/Transition-T1.js>; rel=modulepreload',
    '</assets/home-L1.js>; rel=modulepreload',
  ]);
  // The entry's own static import (index.html already names it) is not repeated; a chunk two
  // modules share is named once; a module the build does not have (auth.json here) is skipped.
  const login = links.get('/login')?.split(', ') ?? [];
  expect(login.filter((l) => l.includes('runtime-R1'))).toEqual([]);
  expect(login.filter((l) => l.includes('Transition-T1'))).toHaveLength(1);
  expect(login).toContain('</assets/query-layout-Q1.js>; rel=modulepreload');
  expect(login).toContain('</assets/login-page-P1.js>; rel=modulepreload');
  expect(login.some((l) => l.includes('as=image'))).toBe(false);
});

test('a route whose modules the build does not have gets the entry only; no manifest, no hints', () => {
  expect(linkHeaders(MANIFEST, ROUTES).get('/gone')?.split(', ')).toEqual([
    '</assets/index-E1.css>; rel=preload; as=style; crossorigin',
    '</assets/index-E1.js>; rel=modulepreload',
  ]);
  expect(linkHeaders({}, ROUTES).size).toBe(0);
});

test('routeStylesheets: the stylesheets a route brings beyond the entry, in the hints\' order (the prerendered home page links them)', () => {
  expect(routeStylesheets(MANIFEST, '/', ROUTES)).toEqual(['assets/home-page-H1.css', 'assets/Button-B1.css']);
  expect(routeStylesheets(MANIFEST, '/login', ROUTES)).toEqual(['assets/Button-B1.css']);
  expect(routeStylesheets(MANIFEST, '/gone', ROUTES)).toEqual([]);
  expect(routeStylesheets(MANIFEST, '/not-a-route', ROUTES)).toEqual([]);
});

test('routeScripts: what a prerendered page asks for once painted, the entry first, then its imports and the route\'s chunks, once each', () => {
  expect(routeScripts(MANIFEST, '/', ROUTES)).toEqual([
    'assets/index-E1.js',
    'assets/runtime-R1.js',
    'assets/home-page-H1.js',
    'assets/Button.layer-B1.js',
    'assets/Transition-T1.js',
    'assets/home-L1.js',
  ]);
  expect(routeScripts(MANIFEST, '/login', ROUTES)).toEqual([
    'assets/index-E1.js',
    'assets/runtime-R1.js',
    'assets/query-layout-Q1.js',
    'assets/login-page-P1.js',
    'assets/Button.layer-B1.js',
    'assets/Transition-T1.js',
  ]);
  expect(routeScripts(MANIFEST, '/not-a-route', ROUTES)).toEqual(['assets/index-E1.js', 'assets/runtime-R1.js']);
});

test('every module a route names is a file of the client (a moved file would silently lose its hints)', () => {
  const named = Object.values(PRELOADED_ROUTES).flatMap((r) => r.modules);
  expect(named.filter((m) => !existsSync(new URL(`../../../client/${m}`, import.meta.url)))).toEqual([]);
});

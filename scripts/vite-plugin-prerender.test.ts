import { expect, test } from 'vitest';
import { composePrerenderedHtml } from './vite-plugin-prerender';

const HOME = { path: '/', anyQuery: true };
const START = { script: 'assets/start-after-paint-S1.js', files: ['assets/index-E1.js', 'assets/runtime-R1.js', 'assets/home-page-H1.js'] };

/** index.html as Vite writes it (scripts/vite-plugin-prerender.ts starts from it). */
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <title>Pariksha Mitra</title>
    <script type="module" crossorigin src="/assets/index-E1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/runtime-R1.js">
    <link rel="stylesheet" crossorigin href="/assets/index-E1.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

test('home.html is index.html with the page in #root (marked, inert), its stylesheets written into the head and the colour scheme set', () => {
  const html = composePrerenderedHtml(INDEX, HOME, '<main><h1>Home</h1></main>', [
    { href: 'assets/home-page-H1.css', css: '._title_1{font-size:2rem}\n' },
    { href: 'assets/Button-B1.css', css: '@layer mantine{.m_1{color:red}}' },
  ], START);
  expect(html).toContain('<html lang="en" data-mantine-color-scheme="light">');
  expect(html).toContain('<div id="root" data-prerendered="/" data-prerendered-any-query inert><main><h1>Home</h1></main></div>');
  const head = html.slice(0, html.indexOf('</head>'));
  // One <style> with both files, in order, after the entry's own stylesheet.
  expect(head).toContain('<style data-prerendered-styles>._title_1{font-size:2rem}\n@layer mantine{.m_1{color:red}}</style>');
  expect(head.indexOf('/assets/index-E1.css')).toBeLessThan(head.indexOf('<style data-prerendered-styles>'));
  // Each file named by a disabled link: not fetched, and not loaded again by Vite's loader.
  expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/home-page-H1.css" disabled>');
  expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/Button-B1.css" disabled>');
});

test('the page\'s one script is the start script, which asks for the app\'s scripts once the page is painted: no entry tag, no modulepreload', () => {
  const html = composePrerenderedHtml(INDEX, HOME, '<main></main>', [], START);
  expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script type="module" crossorigin src="/assets/start-after-paint-S1.js">']);
  expect(html).toContain('<meta name="pm-app" content="/assets/index-E1.js /assets/runtime-R1.js /assets/home-page-H1.js">');
  expect(html).not.toContain('modulepreload');
  expect(html).not.toContain('src="/assets/index-E1.js"');
  // The entry's stylesheet stays: it is the first paint's.
  expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-E1.css">');
  // The entry named first must be index.html's; a file outside the build is refused.
  expect(() => composePrerenderedHtml(INDEX, HOME, '<p/>', [], { ...START, files: ['assets/other.js'] })).toThrow(/module entry/);
  expect(() => composePrerenderedHtml(INDEX, HOME, '<p/>', [], { ...START, script: '../x.js' })).toThrow(/not a script/);
});

test('a stylesheet that would close the <style> element, or is not a file of the build, is refused', () => {
  expect(() => composePrerenderedHtml(INDEX, HOME, '<p/>', [{ href: 'assets/x.css', css: 'a{}</style><script>' }], START)).toThrow(/<style>/);
  expect(() => composePrerenderedHtml(INDEX, HOME, '<p/>', [{ href: '../x.css', css: 'a{}' }], START)).toThrow(/not a stylesheet/);
});

test('markup with "$" patterns is inserted as it is', () => {
  const markup = "<p>$& $1 $' $`</p>";
  expect(composePrerenderedHtml(INDEX, HOME, markup, [], START)).toContain(`inert>${markup}</div>`);
});

test('an index.html without an empty #root or an English <html> is refused, not half-prerendered', () => {
  expect(() => composePrerenderedHtml(INDEX.replace('<div id="root"></div>', '<div id="app"></div>'), HOME, '<p/>', [], START)).toThrow(/#root/);
  expect(() => composePrerenderedHtml(INDEX.replace('<html lang="en">', '<html>'), HOME, '<p/>', [], START)).toThrow();
});

test('a page drawn for its bare address only (the login form) is marked without any-query', () => {
  const html = composePrerenderedHtml(INDEX, { path: '/login', anyQuery: false }, '<form></form>', [], START);
  expect(html).toContain('<div id="root" data-prerendered="/login" inert><form></form></div>');
});

test('a path that is not a plain route path is refused (it is written into an attribute)', () => {
  expect(() => composePrerenderedHtml(INDEX, { path: '/x"><script>', anyQuery: false }, '<p/>', [], START)).toThrow(/plain route path/);
});

test('a page that starts the app on interaction (the home page) says so to the start script and is not inert', () => {
  const html = composePrerenderedHtml(INDEX, { ...HOME, startOnInteraction: true }, '<main></main>', [], START);
  expect(html).toContain('<meta name="pm-app" content="/assets/index-E1.js /assets/runtime-R1.js /assets/home-page-H1.js" data-start="interaction">');
  expect(html).toContain('<div id="root" data-prerendered="/" data-prerendered-any-query><main></main></div>');
});

test('the page\'s title, as the app sets it, replaces index.html\'s (escaped)', () => {
  const html = composePrerenderedHtml(INDEX, HOME, '<main></main>', [], START, 'Q&A <Home> | Pariksha Mitra');
  expect(html).toContain('<title>Q&amp;A &lt;Home&gt; | Pariksha Mitra</title>');
  expect(composePrerenderedHtml(INDEX, HOME, '<main></main>', [], START)).toContain('<title>Pariksha Mitra</title>');
});

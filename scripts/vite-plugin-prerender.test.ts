import { expect, test } from 'vitest';
import { composePrerenderedHtml } from './vite-plugin-prerender';

const HOME = { path: '/', anyQuery: true };

/** index.html as Vite writes it (scripts/vite-plugin-prerender.ts starts from it). */
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <title>Pariksha Mitra</title>
    <script type="module" crossorigin src="/assets/index-E1.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-E1.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

test('home.html is index.html with the page in #root (marked, inert), its stylesheets in the head and the colour scheme set', () => {
  const html = composePrerenderedHtml(INDEX, HOME, '<main><h1>Home</h1></main>', ['assets/home-page-H1.css', 'assets/Button-B1.css']);
  expect(html).toContain('<html lang="en" data-mantine-color-scheme="light">');
  expect(html).toContain('<div id="root" data-prerendered="/" data-prerendered-any-query inert><main><h1>Home</h1></main></div>');
  const head = html.slice(0, html.indexOf('</head>'));
  expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/home-page-H1.css">');
  expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/Button-B1.css">');
  // The entry's script and stylesheet stay as they were, before the page's own.
  expect(head.indexOf('/assets/index-E1.css')).toBeLessThan(head.indexOf('/assets/home-page-H1.css'));
  expect(html).toContain('<script type="module" crossorigin src="/assets/index-E1.js"></script>');
});

test('markup with "$" patterns is inserted as it is', () => {
  const markup = "<p>$& $1 $' $`</p>";
  expect(composePrerenderedHtml(INDEX, HOME, markup, [])).toContain(`inert>${markup}</div>`);
});

test('an index.html without an empty #root or an English <html> is refused, not half-prerendered', () => {
  expect(() => composePrerenderedHtml(INDEX.replace('<div id="root"></div>', '<div id="app"></div>'), HOME, '<p/>', [])).toThrow(/#root/);
  expect(() => composePrerenderedHtml(INDEX.replace('<html lang="en">', '<html>'), HOME, '<p/>', [])).toThrow();
});

test('a page drawn for its bare address only (the login form) is marked without any-query', () => {
  const html = composePrerenderedHtml(INDEX, { path: '/login', anyQuery: false }, '<form></form>', []);
  expect(html).toContain('<div id="root" data-prerendered="/login" inert><form></form></div>');
});

test('a path that is not a plain route path is refused (it is written into an attribute)', () => {
  expect(() => composePrerenderedHtml(INDEX, { path: '/x"><script>', anyQuery: false }, '<p/>', [])).toThrow(/plain route path/);
});

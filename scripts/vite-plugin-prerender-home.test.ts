import { expect, test } from 'vitest';
import { composeHomeHtml } from './vite-plugin-prerender-home';

/** index.html as Vite writes it (scripts/vite-plugin-prerender-home.ts starts from it). */
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
  const html = composeHomeHtml(INDEX, '<main><h1>Home</h1></main>', ['assets/home-page-H1.css', 'assets/Button-B1.css']);
  expect(html).toContain('<html lang="en" data-mantine-color-scheme="light">');
  expect(html).toContain('<div id="root" data-prerendered="/" inert><main><h1>Home</h1></main></div>');
  const head = html.slice(0, html.indexOf('</head>'));
  expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/home-page-H1.css">');
  expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/Button-B1.css">');
  // The entry's script and stylesheet stay as they were, before the page's own.
  expect(head.indexOf('/assets/index-E1.css')).toBeLessThan(head.indexOf('/assets/home-page-H1.css'));
  expect(html).toContain('<script type="module" crossorigin src="/assets/index-E1.js"></script>');
});

test('markup with "$" patterns is inserted as it is', () => {
  const markup = "<p>$& $1 $' $`</p>";
  expect(composeHomeHtml(INDEX, markup, [])).toContain(`inert>${markup}</div>`);
});

test('an index.html without an empty #root or an English <html> is refused, not half-prerendered', () => {
  expect(() => composeHomeHtml(INDEX.replace('<div id="root"></div>', '<div id="app"></div>'), '<p/>', [])).toThrow(/#root/);
  expect(() => composeHomeHtml(INDEX.replace('<html lang="en">', '<html>'), '<p/>', [])).toThrow();
});

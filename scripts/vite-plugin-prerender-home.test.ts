import { expect, test } from 'vitest';
import { bootModule, composeHomeHtml, entrySrc } from './vite-plugin-prerender-home';

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
  const html = composeHomeHtml(INDEX, '<main><h1>Home</h1></main>', ['assets/home-page-H1.css', 'assets/Button-B1.css'], '/assets/home-boot-B1.js');
  expect(html).toContain('<html lang="en" data-mantine-color-scheme="light">');
  expect(html).toContain('<div id="root" data-prerendered="/" inert><main><h1>Home</h1></main></div>');
  const head = html.slice(0, html.indexOf('</head>'));
  expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/home-page-H1.css">');
  expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/Button-B1.css">');
  // The entry's stylesheet stays, before the page's own; the entry is fetched at once but started
  // by the boot module, after the first paint.
  expect(head.indexOf('/assets/index-E1.css')).toBeLessThan(head.indexOf('/assets/home-page-H1.css'));
  expect(html).not.toContain('<script type="module" crossorigin src="/assets/index-E1.js"></script>');
  expect(head).toContain('<script type="module" crossorigin src="/assets/home-boot-B1.js"></script>');
  expect(head).toContain('<link rel="modulepreload" crossorigin href="/assets/index-E1.js">');
  expect(html.match(/<script\b/g)).toHaveLength(1);
});

test('the boot module imports the entry once: after the first paint and the eager images, or after a second', () => {
  expect(entrySrc(INDEX)).toBe('/assets/index-E1.js');
  const boot = bootModule('/assets/index-E1.js');
  expect(boot.match(/import\(/g)).toHaveLength(1);
  expect(boot).toContain('import("/assets/index-E1.js")');
  expect(boot).toContain("'first-contentful-paint'");
  expect(boot).toContain('img[loading=eager]');
  expect(boot).toContain('setTimeout(start, 1000)');
  // A module of its own (no inline script: the CSP runs none), valid JavaScript.
  expect(() => new Function(boot.replace(/import\(/g, 'void ('))).not.toThrow();
});

test('markup with "$" patterns is inserted as it is', () => {
  const markup = "<p>$& $1 $' $`</p>";
  expect(composeHomeHtml(INDEX, markup, [], '/assets/home-boot-B1.js')).toContain(`inert>${markup}</div>`);
});

test('an index.html without an empty #root, an English <html> or a module entry is refused, not half-prerendered', () => {
  expect(() => composeHomeHtml(INDEX.replace('<div id="root"></div>', '<div id="app"></div>'), '<p/>', [], '/b.js')).toThrow(/#root/);
  expect(() => composeHomeHtml(INDEX.replace('<html lang="en">', '<html>'), '<p/>', [], '/b.js')).toThrow();
  expect(() => composeHomeHtml(INDEX.replace(/<script[^>]*><\/script>/, ''), '<p/>', [], '/b.js')).toThrow(/module entry/);
});

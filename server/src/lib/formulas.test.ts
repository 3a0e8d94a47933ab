import { describe, expect, test } from 'vitest';
import { MAX_LATEX, renderFormula, renderFormulas } from './formulas';

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const inline = (latex: string, content = '') => `<span data-type="inline-math" data-latex="${attr(latex)}">${content}</span>`;
const block = (latex: string, content = '') => `<div data-type="block-math" data-latex="${attr(latex)}">${content}</div>`;

describe('renderFormulas', () => {
  test('an inline formula gets KaTeX HTML inside its span, in text style; the source stays', () => {
    const out = renderFormulas(`<p>Area ${inline('\\pi r^2')} of a circle</p>`);
    expect(out).toMatch(/^<p>Area <span data-type="inline-math" data-latex="\\pi r\^2"><span class="katex">/);
    expect(out).not.toContain('katex-display');
    expect(out).toMatch(/<span class="mord mathnormal"[^>]*>r<\/span>/);
    expect(out).toMatch(/<\/span><\/span> of a circle<\/p>$/);
  });

  test('a block formula gets display style inside its div', () => {
    const out = renderFormulas(block('\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}'));
    expect(out).toMatch(/^<div data-type="block-math" data-latex="[^"]+"><span class="katex-display"><span class="katex">/);
  });

  test('whatever the node held is replaced, so rendering twice changes nothing', () => {
    const once = renderFormulas(inline('x^2', '<b>stale</b> <span class="katex">old rendering</span>'));
    expect(once).not.toContain('stale');
    expect(once).not.toContain('old rendering');
    expect(renderFormulas(once)).toBe(once);
  });

  test('text without formulas comes back as the same string (no parse, no re-serialisation)', () => {
    const html = '<p>नमस्ते <b>a &amp; b</b> &lt;c&gt; <span data-type="mention">x</span></p>';
    expect(renderFormulas(html)).toBe(html);
  });

  test('Hindi text around a formula stays UTF-8, markup characters stay encoded', () => {
    const out = renderFormulas(`<p>यदि ${inline('a<b \\text{"c"}')} तो a &lt; b &amp; c</p>`);
    expect(out).toContain('<p>यदि ');
    expect(out).toContain(' तो a &lt; b &amp; c</p>');
    // The attribute exactly as written (entities are not decoded and encoded again).
    expect(out).toContain('data-latex="a&lt;b \\text{&quot;c&quot;}"');
  });

  test('a formula inside another formula node is rendered once, with its parent', () => {
    const out = renderFormulas(block('y', inline('x')));
    expect(out.match(/class="katex"/g)).toHaveLength(1);
    expect(out).not.toContain('data-latex="x"');
  });

  test('only span inline-math and div block-math are formulas', () => {
    for (const html of ['<div data-type="inline-math" data-latex="x"></div>', '<span data-type="block-math" data-latex="x"></span>', '<p data-type="inline-math" data-latex="x"></p>']) {
      expect(renderFormulas(html)).not.toContain('katex');
    }
  });

  test('an empty or missing source renders as an empty formula, not an error', () => {
    expect(() => renderFormulas('<span data-type="inline-math"></span>')).not.toThrow();
    expect(renderFormulas('<span data-type="inline-math"></span>')).toContain('class="katex"');
  });
});

describe('renderFormula', () => {
  test('LaTeX KaTeX cannot parse shows as source in its error colour, never throws', () => {
    const out = renderFormula('\\frac{1}{', false);
    expect(out).toContain('katex-error');
    expect(out).toContain('\\frac{1}{');
  });

  test(`a source longer than ${MAX_LATEX} characters is shown escaped, not rendered`, () => {
    const latex = `<img src=x onerror=alert(1)>${'x+'.repeat(MAX_LATEX)}`;
    const out = renderFormula(latex, false);
    expect(out.startsWith('<span class="katex-error" style="color:#cc0000">&lt;img src=x onerror=alert(1)&gt;x+x+')).toBe(true);
    expect(out).not.toContain('<img');
  });

  test('absurd nesting and macro loops end quickly without an exception', () => {
    const started = performance.now();
    expect(renderFormula(`${'\\sqrt{'.repeat(300)}x${'}'.repeat(300)}`, true)).toContain('katex');
    expect(renderFormula('\\def\\a{\\a\\a}\\a', false)).toContain('katex-error');
    expect(renderFormula('\\rule{1000em}{1000em}', false)).not.toContain('1000em');
    expect(performance.now() - started).toBeLessThan(5000);
  });

  test.each(['\\href{javascript:alert(1)}{click}', '\\url{https://evil.example}', '\\includegraphics{https://evil.example/x.png}', '\\htmlClass{evil}{x}', '\\htmlId{evil}{x}', '\\htmlStyle{background:url(https://evil.example)}{x}', '\\htmlData{foo=bar}{x}'])(
    '%s makes no link, image, class, id, style or data attribute (trust: false)',
    (latex) => {
      const out = renderFormula(latex, false);
      expect(out).not.toMatch(/<a\b|href=|<img|src=|evil|url\(|data-foo|id=/);
    },
  );
});

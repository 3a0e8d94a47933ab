import { expect, test } from 'vitest';
import { renderMathIn } from './preview-panel';

test('unsaved formulas are drawn by KaTeX once; drawn ones and saved (already rendered) ones are left alone', () => {
  const root = document.createElement('div');
  root.innerHTML =
    '<p>Area <span data-type="inline-math" data-latex="\\pi r^2"></span></p>' +
    '<div data-type="block-math" data-latex="\\frac{a}{b}"></div>' +
    '<p><span data-type="inline-math" data-latex="x"><span class="katex">saved</span></span></p>' +
    '<p><span data-type="inline-math" data-latex="\\frac{"></span></p>';
  renderMathIn(root);
  const [inline, block, saved, broken] = root.querySelectorAll<HTMLElement>('[data-latex]');
  expect(inline!.querySelector('.katex')).not.toBeNull();
  expect(block!.querySelector('.katex-display')).not.toBeNull();
  expect(saved!.textContent).toBe('saved');
  // A mistake shows as KaTeX's error text, and is not drawn again and again.
  const shown = broken!.innerHTML;
  expect(shown).not.toBe('');
  renderMathIn(root);
  expect(broken!.innerHTML).toBe(shown);
  expect(inline!.querySelectorAll('.katex')).toHaveLength(1);
});

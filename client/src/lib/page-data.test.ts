import { afterEach, expect, test, vi } from 'vitest';
import { PAGE_DATA_ELEMENT_ID } from '@pm/protocol/page-data';

/** A fresh module each time: it reads the page once. */
async function load(block?: string) {
  document.body.innerHTML = block === undefined ? '' : `<script type="application/json" id="${PAGE_DATA_ELEMENT_ID}">${block}</script>`;
  vi.resetModules();
  return import('./page-data');
}
afterEach(() => {
  document.body.innerHTML = '';
});

test('the plans the server drew the page with, dated when the page was asked for', async () => {
  const plans = { success: true, data: [{ id: 'p1', code: 'ANNUAL', name: { en: 'Yearly', hi: 'वार्षिक' } }] };
  const { pageData } = await load(JSON.stringify({ plans }).replace(/</g, '\\u003c'));
  expect(pageData('plans')).toEqual({ value: plans, at: Math.round(performance.timeOrigin) });
  // Read again (the query made again later): the same data, with the same date, so it is refetched once stale.
  expect(pageData('plans')?.at).toBe(Math.round(performance.timeOrigin));
});

test('nothing without a block, with a broken one, or without the field', async () => {
  expect((await load()).pageData('plans')).toBeUndefined();
  expect((await load('{"plans":')).pageData('plans')).toBeUndefined();
  expect((await load('null')).pageData('plans')).toBeUndefined();
  expect((await load('{}')).pageData('plans')).toBeUndefined();
});

import { expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';

const files = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', { eager: true, import: 'default' });
const keys = (o: Record<string, unknown>, p = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v as Record<string, unknown>, `${p}${k}.`) : [`${p}${k}`]));
const load = (lang: string, file: string) => files[`../locales/${lang}/${file}`] ?? {};
const names = Object.keys(files)
  .filter((f) => f.startsWith('../locales/en/'))
  .map((f) => f.slice('../locales/en/'.length));

test('every English string has a Hindi translation', () => {
  expect(names.length).toBeGreaterThan(2);
  for (const file of names) {
    expect(keys(load('hi', file)).sort(), file).toEqual(keys(load('en', file)).sort());
  }
});

test('every server message has a translation key', () => {
  expect(load('en', 'messages.json')).toEqual(MSG);
});

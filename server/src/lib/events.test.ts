import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { openDatabase } from '../db/client';
import { connectEventBus, createEventBus } from './events';
import { createLogger } from './logger';

test('a connection that unsubscribes twice does not silence a newer connection of the same person', () => {
  const bus = createEventBus();
  const old: string[][] = [];
  const now: string[][] = [];
  const offOld = bus.subscribe('p1', (c) => old.push(c));
  offOld(); // the old stream was aborted
  bus.subscribe('p1', (c) => now.push(c)); // the person's new tab or device connects
  offOld(); // the old stream's loop ends and unsubscribes again
  bus.emit({ collections: ['exam_result'], personId: 'p1' });
  expect(now).toEqual([['exam_result']]);
  expect(old).toEqual([]);
  expect(bus.listenerCount()).toBe(1);
});

test('events for one person reach only that person; shared changes reach everyone', () => {
  const bus = createEventBus();
  const a: string[][] = [];
  const b: string[][] = [];
  bus.subscribe('a', (c) => a.push(c));
  bus.subscribe('b', (c) => b.push(c));
  bus.emit({ collections: ['test_summary'], personId: 'a' });
  bus.emit({ collections: ['tag'] });
  expect(a).toEqual([['test_summary'], ['tag']]);
  expect(b).toEqual([['tag']]);
});

test("a live test's released key goes with its person's change only (docs/live-tests.md \"The key at scale\")", () => {
  const bus = createEventBus();
  const a: unknown[] = [];
  const b: unknown[] = [];
  bus.subscribe('a', (c, keys) => a.push({ c, keys }));
  bus.subscribe('b', (c, keys) => b.push({ c, keys }));
  const keys = [{ qsid: 'qs-1', key: 'k'.repeat(43) }];
  bus.emit({ collections: ['live_key'], personId: 'a', keys });
  // A shared change never carries keys, whatever the caller passed.
  bus.emit({ collections: ['tag'], keys });
  expect(a).toEqual([{ c: ['live_key'], keys }, { c: ['tag'], keys: undefined }]);
  expect(b).toEqual([{ c: ['tag'], keys: undefined }]);
});

test('on SQLite (one instance) the connected bus is the in-process bus', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pm-events-'));
  const database = openDatabase(dir);
  try {
    const bus = connectEventBus(database.db, { log: createLogger('silent') });
    await bus.ready;
    const got: string[][] = [];
    bus.subscribe('p1', (c) => got.push(c));
    bus.emit({ collections: ['tag'] });
    bus.emit({ collections: ['exam_result'], personId: 'p1' });
    bus.emit({ collections: ['exam_result'], personId: 'p2' });
    expect(got).toEqual([['tag'], ['exam_result']]);
    await bus.close();
  } finally {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

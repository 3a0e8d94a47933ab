import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { firstValueFrom } from 'rxjs';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { bundleKeyId, sealBundle } from '@pm/protocol/bundle';
import { openReplicaDatabase, type ReplicaDatabase } from '@/db/core/database';
import { sharedSet$ } from '@/db/learner/shared-sets';
import { importBundle, ShareError } from './bundles';
import { bundlePayload } from './bundles.fixture';

/*
 * Opening a shared test on the device (docs/live-tests.md "On the receiving phone"): checked with
 * the keys kept on the device, kept in the replica's local document, never in the pulled
 * collections.
 */

let db: ReplicaDatabase;
let n = 0;
let signer: { kid: string; privateKey: CryptoKey };
beforeEach(async () => {
  db = await openReplicaDatabase('bundle-test', { storage: getRxStorageMemory(), multiInstance: false, name: `bundle-test-${++n}` });
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const { x, y } = await crypto.subtle.exportKey('jwk', pair.publicKey);
  const jwk = { kty: 'EC' as const, crv: 'P-256' as const, x: x!, y: y! };
  const kid = await bundleKeyId(jwk);
  signer = { kid, privateKey: pair.privateKey };
  localStorage.setItem('bundleKeys', JSON.stringify({ success: true, keys: [{ kid, jwk }] }));
});
afterEach(async () => {
  localStorage.clear();
  await db.remove();
});


/** The file as the picker gives it (jsdom's File cannot read itself). */
const fileOf = (bytes: Uint8Array<ArrayBuffer>) => ({ size: bytes.length, arrayBuffer: () => Promise.resolve(bytes.slice().buffer) });

test('a bundle signed with a key the device holds is kept apart from the pulled collections', async () => {
  await importBundle(db, fileOf(await sealBundle(bundlePayload(true, 'Shared'), signer)), { guest: true });
  expect((await firstValueFrom(sharedSet$(db, 'qs-shared')))?.set.l).toBe('Shared');
  expect(await db.question_set.findOne('qs-shared').exec()).toBeNull();
  expect(await db.qs_detail.findOne('qs-shared').exec()).toBeNull();
});

test('a changed byte, no keys on the device, and a paid set for a guest are refused, nothing kept', async () => {
  const bytes = await sealBundle(bundlePayload(false, 'Shared'), signer);
  const tampered = bytes.slice();
  tampered[tampered.length - 3]! ^= 0x01;
  await expect(importBundle(db, fileOf(tampered), { guest: false })).rejects.toEqual(new ShareError('tampered'));
  await expect(importBundle(db, fileOf(bytes), { guest: true })).rejects.toEqual(new ShareError('signIn'));
  localStorage.removeItem('bundleKeys');
  await expect(importBundle(db, fileOf(bytes), { guest: false })).rejects.toEqual(new ShareError('noKeys'));
  expect(await firstValueFrom(sharedSet$(db, 'qs-shared'))).toBeNull();
});

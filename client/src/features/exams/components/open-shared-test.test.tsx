import { act, screen, within } from '@testing-library/react';
import { firstValueFrom } from 'rxjs';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { bundleKeyId, sealBundle } from '@pm/protocol/bundle';
import type { ReplicaDatabase } from '@/db/core/database';
import { ReplicaContext } from '@/db/learner/replica-context';
import type { ReplicaHandle } from '@/db/learner/replica';
import { sharedSet$ } from '@/db/learner/shared-sets';
import { consumeLaunchQueue, type LaunchQueue } from '@/lib/pwa/launch-files';
import { renderWithApp } from '@/testing/render';
import { openFixture } from './allowance.fixture';
import { OpenSharedTest } from './open-shared-test';
import { bundlePayload } from '@/lib/bundles.fixture';

/*
 * A test file the installed app is opened with (docs/live-tests.md "On the receiving phone"): the
 * browser's launch queue (a stand-in object here: jsdom has none) hands the file to the real
 * consumer, and "Open a shared test" imports it with the real checks, as a file picked by hand.
 */

let open: ReplicaDatabase | null = null;
let signer: { kid: string; privateKey: CryptoKey };
/** The consumer the app set on the launch queue. */
let launch: Parameters<LaunchQueue['setConsumer']>[0] = () => undefined;

beforeEach(async () => {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const { x, y } = await crypto.subtle.exportKey('jwk', pair.publicKey);
  const jwk = { kty: 'EC' as const, crv: 'P-256' as const, x: x!, y: y! };
  const kid = await bundleKeyId(jwk);
  signer = { kid, privateKey: pair.privateKey };
  // The server's keys, as the exam list keeps them while online (lib/bundles.ts rememberBundleKeys).
  localStorage.setItem('bundleKeys', JSON.stringify({ success: true, keys: [{ kid, jwk }] }));
  consumeLaunchQueue({ launchQueue: { setConsumer: (consumer) => (launch = consumer) } });
});
afterEach(async () => {
  await open?.remove();
  open = null;
});


/** A launch's file handle as the File Handling API gives it (jsdom's File cannot read itself). */
const handleOf = (bytes: Uint8Array<ArrayBuffer>) => ({ kind: 'file', getFile: () => Promise.resolve({ size: bytes.length, arrayBuffer: () => Promise.resolve(bytes.slice().buffer) }) });

async function renderOpenShared({ guest = false, lang = 'en' } = {}) {
  const { db, replica } = await openFixture({ sets: [] });
  open = db;
  await renderWithApp(
    <ReplicaContext.Provider value={replica as ReplicaHandle}>
      <OpenSharedTest guest={guest} />
    </ReplicaContext.Provider>,
    { lang, namespaces: ['exam'] },
  );
  return db;
}

test('opened with a test file: the dialog opens, the file is checked and kept, and the test can be taken', async () => {
  const db = await renderOpenShared();
  const bytes = await sealBundle(bundlePayload(true), signer);
  await act(async () => launch({ files: [handleOf(bytes)] }));
  const dialog = await screen.findByRole('dialog', { name: 'Open a shared test' });
  const opened = await within(dialog).findByTestId('shared-test-opened');
  expect(opened).toHaveTextContent('“Shared quiz” is on this phone now.');
  expect(within(opened).getByRole('link', { name: 'Take Test' })).toHaveAttribute('href', '/take-exam/qs-shared');
  expect((await firstValueFrom(sharedSet$(db, 'qs-shared')))?.set.l).toBe('Shared quiz');
  // Kept apart from the pulled collections, as a picked file is.
  expect(await db.question_set.findOne('qs-shared').exec()).toBeNull();
});

test('a file launched before the exam list was drawn is imported once it is', async () => {
  const bytes = await sealBundle(bundlePayload(true), signer);
  await act(async () => launch({ files: [{ kind: 'directory', getFile: () => Promise.reject(new Error('a directory')) }, handleOf(bytes)] }));
  const db = await renderOpenShared();
  expect(await screen.findByTestId('shared-test-opened')).toHaveTextContent('“Shared quiz” is on this phone now.');
  expect((await firstValueFrom(sharedSet$(db, 'qs-shared')))?.set.id).toBe('qs-shared');
});

test('a changed file is refused with the same message as a picked one, and nothing is kept', async () => {
  const db = await renderOpenShared();
  const tampered = (await sealBundle(bundlePayload(true), signer)).slice();
  tampered[tampered.length - 3]! ^= 0x01;
  await act(async () => launch({ files: [handleOf(tampered)] }));
  expect(await screen.findByTestId('shared-test-refused')).toHaveTextContent('This test file has been changed or damaged, so it cannot be opened.');
  expect(await firstValueFrom(sharedSet$(db, 'qs-shared'))).toBeNull();
});

test('Hindi: a guest opening a paid set is told to log in, in Hindi', async () => {
  await renderOpenShared({ guest: true, lang: 'hi' });
  await act(async () => launch({ files: [handleOf(await sealBundle(bundlePayload(false), signer))] }));
  expect(await screen.findByTestId('shared-test-refused')).toHaveTextContent('यह टेस्ट निःशुल्क नहीं है: इसे देने के लिए लॉग इन करें।');
});

test('not a test file of this app: refused as one', async () => {
  await renderOpenShared();
  const junk = new TextEncoder().encode('hello, this is a text file');
  await act(async () => launch({ files: [handleOf(junk)] }));
  expect(await screen.findByTestId('shared-test-refused')).toHaveTextContent('This is not a test file of this app.');
});

import { describe, expect, it } from 'vitest';
import {
  formatUnlockCode,
  mayStartAt,
  newLiveKey,
  normaliseUnlockCode,
  openPaper,
  sealPaper,
  UNLOCK_CODE_CHARS,
  unlockCodeOf,
  unwrapLiveKey,
  wrapLiveKey,
} from './live-test';

const PAPER = [{ id: 'q1', q: 'What is 2 + 2?', ops: { a: '3', b: '4' }, qt: 'mcq1', d: 'E', trans: { hi: { q: '2 + 2 क्या है?', ops: { a: '३', b: '४' } } } }];

describe('live test encryption (docs/live-tests.md "The key schedule")', () => {
  it('a paper sealed with the test key opens with it, and with nothing else', async () => {
    const key = newLiveKey();
    const sealed = await sealPaper(key, 'set-1', PAPER);
    expect(sealed.ct).not.toContain('2 + 2');
    expect(await openPaper(key, 'set-1', sealed)).toEqual(PAPER);
    expect(await openPaper(newLiveKey(), 'set-1', sealed)).toBeNull();
    // Bound to its test: the same key does not open it as another set's paper.
    expect(await openPaper(key, 'set-2', sealed)).toBeNull();
  });

  it('a changed byte of the paper fails its tag', async () => {
    const key = newLiveKey();
    const sealed = await sealPaper(key, 'set-1', PAPER);
    const flipped = sealed.ct.slice(0, 5) + (sealed.ct[5] === 'A' ? 'B' : 'A') + sealed.ct.slice(6);
    expect(await openPaper(key, 'set-1', { ...sealed, ct: flipped })).toBeNull();
  });
});

describe('unlock codes (docs/live-tests.md "Unlock codes")', () => {
  it('are 12 typeable characters derived from the key and the test', async () => {
    const key = newLiveKey();
    const code = await unlockCodeOf(key, 'set-1');
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{12}$/);
    expect(code).toHaveLength(UNLOCK_CODE_CHARS);
    expect(await unlockCodeOf(key, 'set-1')).toBe(code);
    expect(await unlockCodeOf(key, 'set-2')).not.toBe(code);
    expect(normaliseUnlockCode(formatUnlockCode(code).toLowerCase())).toBe(code);
  });

  it('the right code unwraps the key that opens the paper', async () => {
    const key = newLiveKey();
    const wk = await wrapLiveKey(key, 'set-1');
    const code = await unlockCodeOf(key, 'set-1');
    const out = await unwrapLiveKey(formatUnlockCode(code), 'set-1', wk);
    expect(out).toEqual({ key });
    const paper = await sealPaper(key, 'set-1', PAPER);
    expect(await openPaper((out as { key: string }).key, 'set-1', paper)).toEqual(PAPER);
  });

  it('a mistyped character is told apart from a wrong code', async () => {
    const key = newLiveKey();
    const code = await unlockCodeOf(key, 'set-1');
    const typo = (code[3] === '0' ? '1' : '0') + code.slice(1);
    expect(normaliseUnlockCode(code.slice(0, 3) + typo[0] + code.slice(4))).toBeNull();
    expect(await unwrapLiveKey(code.slice(0, 11), 'set-1', await wrapLiveKey(key, 'set-1'))).toEqual({ error: 'typo' });
  });

  it('a forged code (well-formed, made up) does not open the key', async () => {
    const key = newLiveKey();
    const wk = await wrapLiveKey(key, 'set-1');
    const secret = 'ABCDEFGHJKM';
    let sum = 0;
    const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    for (let i = 0; i < secret.length; i++) sum += (2 * i + 1) * alphabet.indexOf(secret[i]!);
    const forged = secret + alphabet[sum % 32];
    expect(normaliseUnlockCode(forged)).toBe(forged);
    expect(await unwrapLiveKey(forged, 'set-1', wk)).toEqual({ error: 'wrong' });
  });

  it("another test's code does not open this test's key", async () => {
    const key1 = newLiveKey();
    const key2 = newLiveKey();
    const wk1 = await wrapLiveKey(key1, 'set-1');
    expect(await unwrapLiveKey(await unlockCodeOf(key2, 'set-2'), 'set-1', wk1)).toEqual({ error: 'wrong' });
    // The same key scheduled for two sets still gives each its own code.
    expect(await unwrapLiveKey(await unlockCodeOf(key1, 'set-2'), 'set-1', wk1)).toEqual({ error: 'wrong' });
  });

  it('an expired code: the window decides, on the device and on the server', () => {
    const t = { start: 1_000_000, win: 15 * 60_000 };
    expect(mayStartAt(t, t.start - 1)).toBe('early');
    expect(mayStartAt(t, t.start)).toBe('open');
    expect(mayStartAt(t, t.start + t.win)).toBe('open');
    expect(mayStartAt(t, t.start + t.win + 1)).toBe('closed');
  });
});

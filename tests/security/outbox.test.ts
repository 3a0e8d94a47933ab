import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { outbox } from '../../server/src/db/schema';
import type { Logger } from '../../server/src/lib/logger';
import { createLocalOutbox, localInboxFile, readLocalInbox, SECRET_MASK } from '../../server/src/lib/outbox';
import { DEMO, type Harness, startHarness } from '../../server/src/test/harness';

/**
 * docs/security.md "Rate limits, enumeration, passwords, the outbox": the outbox table kept reset codes and generated passwords in plain
 * text. Now a message is stored with its secret masked and the adapter gets the secret apart;
 * the local adapter (the developer's "phone") delivers the full text to the log and, outside
 * production, to DATA_DIR/local-inbox.jsonl (mode 0600).
 */

let h: Harness;
let inboxFile: string;
beforeAll(async () => {
  h = await startHarness();
  inboxFile = path.join(h.dataDir, 'local-inbox.jsonl');
});
afterAll(() => h.destroy());

async function delivered(to: string) {
  await h.deps.afterAnswer.settled();
  const last = readLocalInbox(inboxFile)
    .filter((m) => m.to === to)
    .at(-1);
  if (!last) throw new Error(`nothing delivered to ${to}`);
  return last;
}

/** Every text column of every outbox row, for looking for a secret anywhere in the table. */
async function outboxText(): Promise<string> {
  return JSON.stringify(await h.deps.db.select().from(outbox));
}

describe('no secret in the outbox table', () => {
  test('a reset code reaches the inbox but the outbox table keeps it masked', async () => {
    await h.request('POST', '/UserLogin/resetPassword', { body: { username: DEMO.learner.username } });
    const msg = await delivered(DEMO.learner.username);
    const code = /reset code is (\d{6})\./.exec(msg.body)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(await outboxText()).not.toContain(code);
    const row = (await h.deps.db.select().from(outbox)).at(-1)!;
    expect(row.body).toContain(`reset code is ${SECRET_MASK}.`);
  });

  test('an OTP reaches the inbox but the outbox table keeps it masked', async () => {
    await h.request('POST', '/OTP/requestOTP', { body: { type: 'mobile', mobile: DEMO.editor.mobile } });
    const msg = await delivered(`+91${DEMO.editor.mobile}`);
    const code = /^(\d{6}) is your Pariksha Mitra login OTP/.exec(msg.body)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(await outboxText()).not.toContain(code);
  });

  test('a generated password (account created on behalf) reaches SMS and e-mail; the table never holds it', async () => {
    const token = await h.tokenOf('learner');
    const r = await h.request('POST', '/UserLogin/createUserOnBehalf', {
      token,
      body: { n: 'Outbox Newcomer', m: '9833300001', e: 'outbox.new@example.com' },
    });
    expect(r.status).toBe(201);
    const sms = await delivered('+919833300001');
    const mail = await delivered('outbox.new@example.com');
    const password = /the password (\S+), then/.exec(sms.body)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(mail.body).toContain(password);
    expect(await outboxText()).not.toContain(password);
    // The delivered password works: the masking did not change what the person got.
    expect((await h.login('9833300001', password!)).status).toBe(200);
  });

  test('rows written before the change lose their secrets when an adapter starts', async () => {
    await h.deps.db
      .insert(outbox)
      .values([
        { channel: 'email', recipient: 'old@example.com', subject: 'Password reset code', body: 'Your Pariksha Mitra password reset code is 482913. It is valid for 10 minutes.', status: 'LOGGED' },
        { channel: 'sms', recipient: '+919833300002', subject: 'Login OTP', body: '771204 is your Pariksha Mitra login OTP. It is valid for 10 minutes. Do not share it.', status: 'LOGGED' },
        { channel: 'sms', recipient: '+919833300003', subject: 'Your Pariksha Mitra account', body: 'Welcome to Pariksha Mitra, Old Person. Lata Learner has registered you. Log in with 9833300003 and the password Xk3mP9qRt2, then change it.', status: 'LOGGED' },
      ]);
    await createLocalOutbox(h.deps.db, h.deps.log, { inboxFile: null });
    const text = await outboxText();
    for (const secret of ['482913', '771204', 'Xk3mP9qRt2']) expect(text).not.toContain(secret);
    // What is not a secret stays: the mobile the person logs in with.
    expect(text).toContain('Log in with 9833300003 and the password');
  });
});

describe('the local inbox', () => {
  test('the local inbox is a JSON-lines file readable only by the server user (0600)', () => {
    expect(existsSync(inboxFile)).toBe(true);
    expect(statSync(inboxFile).mode & 0o777).toBe(0o600);
    for (const m of readLocalInbox(inboxFile)) {
      expect(m).toEqual({ at: expect.any(Number), channel: expect.stringMatching(/^(email|sms)$/), to: expect.any(String), subject: expect.any(String), body: expect.any(String) });
      expect(m.body).not.toContain(SECRET_MASK);
    }
  });

  test('outside production the inbox lives in DATA_DIR; in production there is none', () => {
    expect(localInboxFile({ dataDir: '/srv/pm', NODE_ENV: 'development' })).toBe(path.join('/srv/pm', 'local-inbox.jsonl'));
    expect(localInboxFile({ dataDir: '/srv/pm' })).toBe(path.join('/srv/pm', 'local-inbox.jsonl'));
    expect(localInboxFile({ dataDir: '/srv/pm', NODE_ENV: 'production' })).toBeNull();
  });

  test('in production the local adapter writes no file: the full text goes only to a warning in the log', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pm-outbox-'));
    try {
      const lines: Array<{ level: string; obj: unknown; msg: string }> = [];
      const record = (level: string) => (obj: unknown, msg: string) => lines.push({ level, obj, msg });
      const log = { info: record('info'), warn: record('warn'), error: record('error') } as unknown as Logger;
      const box = await createLocalOutbox(h.deps.db, log, { inboxFile: localInboxFile({ dataDir: dir, NODE_ENV: 'production' }) });
      await box.send({ channel: 'sms', to: '+919833300009', subject: 'Login OTP', body: `${SECRET_MASK} is your OTP`, secret: '314159' });
      expect(lines).toHaveLength(1);
      expect(lines[0]!.level).toBe('warn');
      expect(lines[0]!.msg).toMatch(/no e-mail or SMS provider is configured/);
      expect(JSON.stringify(lines[0]!.obj)).toContain('314159 is your OTP');
      expect(existsSync(path.join(dir, 'local-inbox.jsonl'))).toBe(false);
      expect(await outboxText()).not.toContain('314159');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

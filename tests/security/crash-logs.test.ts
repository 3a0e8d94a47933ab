import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { attemptDoc } from '../attempt-doc';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { DEMO } from '../../server/src/test/harness';
import { login, startServer } from './server-process';

/**
 * docs/security.md "Production, load shedding, logs, files": a warning reaches the log before the request that caused it is answered,
 * so a process killed with -9 right after the answer has written it (lib/logger.ts). Info lines
 * may still be lost: they are buffered for speed.
 */

const work = mkdtempSync(path.join(tmpdir(), 'pm-crash-logs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** POST with a JSON body; resolves with the status as soon as the response's head has arrived. */
function postHead(url: string, headers: Record<string, string>, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...headers } });
    req.on('response', (res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('logs survive a crash', () => {
  test('a warning logged by a request is in the log after a kill -9 that follows its answer at once', async () => {
    const server = await startServer({ dataDir: path.join(work, 'data'), logFile: path.join(work, 'server.log') });
    try {
      await server.ready();
      const signIn = await login(server.base, DEMO.learner.mobile, DEMO.learner.password);
      expect(signIn.status).toBe(200);

      // An attempt at a question set the server does not know: skipped with a warning
      // (modules/sync/sync.service.ts), the push itself answered 200.
      const attempt = attemptDoc('crash-test-attempt-0001', { qsid: 'no-such-question-set', st: Date.now() - 60_000 });
      const status = await postHead(
        `${server.base}/api/sync/v1/test_summary/push`,
        { authorization: `Bearer ${signIn.body.token as string}`, 'x-sync-protocol': PROTOCOL_VERSION },
        [{ newDocumentState: attempt, assumedMasterState: null }],
      );
      server.child.kill('SIGKILL');
      expect(status).toBe(200);
      expect((await server.exited).signal).toBe('SIGKILL');

      const warning = server.log().find((l) => l.level === 40 && l.attempt === attempt.id);
      expect(warning).toMatchObject({ msg: 'attempt at an unknown question set skipped', qsid: 'no-such-question-set', person: DEMO.learner.id });
    } finally {
      await server.stop();
    }
  }, 180_000);
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { createApp } from '../../server/src/app';
import { serveClientFiles } from '../../server/src/lib/client-files';
import { serveApp } from '../../server/src/serve';
import { DEMO, type Harness, startHarness } from '../../server/src/test/harness';

/**
 * docs/security.md "Headers, CSP and links": the Content-Security-Policy and the other security headers of the site and
 * the API, HSTS behind a TLS proxy, the violation report endpoint, and links checked by parsing
 * them. Headers are read from the real server over TCP (the middleware writes them straight onto
 * Node's response there, app.ts), serving a built client from a temporary directory.
 */

const INDEX = '<!doctype html><title>Pariksha Mitra</title><script type="module" src="/assets/index-AbC123.js"></script><div id="root"></div>';

let h: Harness;
let clientDir: string;
/** The app as `npm start` runs it: TRUST_PROXY off. */
let plain: Server;
/** The same app and database with TRUST_PROXY on (TLS ends at a proxy in front). */
let proxied: Server;
/** The TRUST_PROXY app itself, for bursts that must not look like a storm of new TCP connections. */
let behindProxy: ReturnType<typeof createApp>;

function listen(fetch: Parameters<typeof serveApp>[0]): Promise<Server> {
  return new Promise((resolve) => {
    const s = serveApp(fetch, { hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
}
const base = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
const get = (s: Server, url: string, headers: Record<string, string> = {}) => fetch(base(s) + url, { headers });

beforeAll(async () => {
  clientDir = mkdtempSync(path.join(tmpdir(), 'pm-client-'));
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'index.html'), INDEX);
  writeFileSync(path.join(clientDir, 'assets', 'index-AbC123.js'), 'export const x = 1;');
  writeFileSync(path.join(clientDir, 'sw.js'), 'self.define=1;');
  writeFileSync(path.join(clientDir, 'manifest.webmanifest'), '{"name":"Pariksha Mitra"}');
  h = await startHarness();
  expect(serveClientFiles(h.app, clientDir)).toBe(true);
  plain = await listen(h.app.fetch);
  behindProxy = createApp({ ...h.deps, config: { ...h.deps.config, TRUST_PROXY: true } });
  expect(serveClientFiles(behindProxy, clientDir)).toBe(true);
  proxied = await listen(behindProxy.fetch);
});
afterAll(async () => {
  for (const s of [plain, proxied]) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  h.destroy();
  rmSync(clientDir, { recursive: true, force: true });
});

/** A policy header as directive → sources. */
function policy(res: Response): Map<string, string[]> {
  const header = res.headers.get('content-security-policy');
  expect(header).toBeTruthy();
  return new Map(
    (header ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name as string, sources]),
  );
}

describe('the site', () => {
  test('the page has a strict CSP: scripts only from the site, never inline or eval, no plugins, no <base>, no framing', async () => {
    for (const url of ['/', '/exam-list', '/question-editor']) {
      const res = await get(plain, url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type'), url).toMatch(/^text\/html/);
      const csp = policy(res);
      expect(csp.get('default-src'), url).toEqual(["'self'"]);
      expect(csp.get('script-src'), url).toEqual(["'self'"]);
      expect(csp.get('object-src'), url).toEqual(["'none'"]);
      expect(csp.get('base-uri'), url).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(csp.get('form-action'), url).toEqual(["'self'"]);
      // What the app loads: its worker, its API and sync stream, its manifest and fonts, and
      // images from any https host (banners, rich text) or inlined.
      expect(csp.get('worker-src'), url).toEqual(["'self'"]);
      expect(csp.get('connect-src'), url).toEqual(["'self'"]);
      expect(csp.get('manifest-src'), url).toEqual(["'self'"]);
      expect(csp.get('font-src'), url).toEqual(["'self'", 'data:']);
      expect(csp.get('img-src'), url).toEqual(["'self'", 'data:', 'https:']);
      // Mantine's run-time <style> elements and rich text's style attributes (documented choice).
      expect(csp.get('style-src'), url).toEqual(["'self'", "'unsafe-inline'"]);
      for (const [name, sources] of csp) {
        if (name !== 'style-src') expect(sources, name).not.toContain("'unsafe-inline'");
        expect(sources, name).not.toContain("'unsafe-eval'");
        expect(sources, name).not.toContain('*');
      }
      expect(res.headers.get('x-frame-options'), url).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), url).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), url).toBe('no-referrer');
      expect(res.headers.get('cache-control'), url).toBe('no-cache');
    }
  });

  test('violations are reported to /api/csp-report: report-uri always, the Reporting API only over TLS', async () => {
    // Chromium sends Reporting API reports to https endpoints only, and ignores report-uri when
    // a policy names report-to: on plain http only report-uri is named.
    const overHttp = await get(plain, '/');
    expect(policy(overHttp).get('report-uri')).toEqual(['/api/csp-report']);
    expect(policy(overHttp).has('report-to')).toBe(false);
    expect(overHttp.headers.get('reporting-endpoints')).toBeNull();
    const overTls = await get(proxied, '/', { 'x-forwarded-proto': 'https' });
    expect(policy(overTls).get('report-uri')).toEqual(['/api/csp-report']);
    expect(policy(overTls).get('report-to')).toEqual(['csp']);
    expect(overTls.headers.get('reporting-endpoints')).toBe('csp="/api/csp-report"');
  });

  test('the built page has no inline script for the policy to block', async () => {
    const html = await (await get(plain, '/')).text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc="\/[^/]/);
      expect(body?.trim()).toBe('');
    }
  });

  test('the service worker and the manifest carry the same policy; the build\'s scripts are never sniffed nor read cross-site', async () => {
    const page = (await get(plain, '/')).headers.get('content-security-policy');
    for (const url of ['/sw.js', '/manifest.webmanifest']) {
      const res = await get(plain, url);
      expect(res.status, url).toBe(200);
      // A worker's policy is the one its script is served with.
      expect(res.headers.get('content-security-policy'), url).toBe(page);
      expect(res.headers.get('x-content-type-options'), url).toBe('nosniff');
    }
    // The scripts under /assets/ run in the page (no worker starts from one), whose policy governs
    // them: they carry only what applies to a subresource (lib/security-headers; docs/benchmarks.md "bench:bundle").
    const script = await get(plain, '/assets/index-AbC123.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect(script.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(script.headers.get('content-security-policy')).toBeNull();
    // Files keep their own caching: the route's Cache-Control wins over no default.
    expect((await get(plain, '/assets/index-AbC123.js')).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});

describe('the API', () => {
  test('every API answer is never sniffed, never framed, runs nothing and is never cached', async () => {
    const login = await fetch(`${base(plain)}/api/UserLogin/login`, { method: 'POST', headers: { authorization: h.basic(DEMO.learner.username, DEMO.learner.password) } });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const answers: [string, Response][] = [
      ['login (a token)', login],
      ['own person', await get(plain, '/api/Person', { authorization: `Bearer ${token}` })],
      ['own results', await get(plain, '/api/question/getExamResult', { authorization: `Bearer ${token}` })],
      ['a replica pull', await get(plain, '/api/sync/v1/tag/pull', { authorization: `Bearer ${token}` })],
      ['401', await get(plain, '/api/Person')],
      ['404', await get(plain, '/api/no-such-route')],
      ['public plans', await get(plain, '/api/plan')],
      ['health', await get(plain, '/api/health')],
    ];
    for (const [what, res] of answers) {
      expect(res.status, what).toBeLessThan(500);
      expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
      expect(res.headers.get('cache-control'), what).toBe('no-store');
      expect(res.headers.get('x-frame-options'), what).toBe('DENY');
      // Not readable by another site's no-cors request (a <script src> or <img> pointing at it).
      expect(res.headers.get('cross-origin-resource-policy'), what).toBe('same-origin');
      const csp = policy(res);
      expect(csp.get('default-src'), what).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), what).toEqual(["'none'"]);
      expect(res.headers.get('strict-transport-security'), what).toBeNull();
    }
  });
});

describe('HSTS', () => {
  test('no HSTS without TRUST_PROXY, whatever X-Forwarded-Proto a client sends', async () => {
    for (const url of ['/', '/api/health']) {
      const res = await get(plain, url, { 'x-forwarded-proto': 'https' });
      expect(res.headers.get('strict-transport-security'), url).toBeNull();
      expect(policy(res).has('upgrade-insecure-requests'), url).toBe(false);
    }
  });

  test('HSTS and upgrade-insecure-requests when TRUST_PROXY says TLS ends in front of us', async () => {
    const cases: Record<string, string>[] = [{ 'x-forwarded-proto': 'https' }, {}, { 'x-forwarded-proto': 'https, http' }];
    for (const headers of cases) {
      for (const url of ['/', '/api/health', '/sw.js']) {
        const res = await get(proxied, url, headers);
        expect(res.headers.get('strict-transport-security'), url).toBe('max-age=31536000; includeSubDomains');
        if (url === '/') expect(policy(res).has('upgrade-insecure-requests')).toBe(true);
      }
    }
  });

  test('no HSTS for a request the proxy says came over plain http', async () => {
    const res = await get(proxied, '/', { 'x-forwarded-proto': 'http' });
    expect(res.headers.get('strict-transport-security')).toBeNull();
    expect(policy(res).has('upgrade-insecure-requests')).toBe(false);
  });
});

describe('the CSP report endpoint', () => {
  const legacy = {
    'csp-report': {
      'document-uri': 'https://pariksha.example/reset?code=123456#x',
      referrer: '',
      'violated-directive': 'script-src-elem',
      'effective-directive': 'script-src-elem',
      'original-policy': "default-src 'self'; script-src 'self'",
      disposition: 'enforce',
      'blocked-uri': 'inline',
      'line-number': 12,
      'column-number': 3,
      'source-file': 'https://pariksha.example/assets/index.js',
      'status-code': 200,
      'script-sample': 'alert(1)',
    },
  };
  const reporting = [
    {
      type: 'csp-violation',
      age: 12,
      url: 'https://pariksha.example/exam-list',
      user_agent: 'Chrome',
      body: { documentURL: 'https://pariksha.example/exam-list?q=x', blockedURL: 'https://evil.example/x.js?t=1', effectiveDirective: 'script-src-elem', disposition: 'enforce', originalPolicy: "script-src 'self'", statusCode: 200, lineNumber: 1, columnNumber: 9, sample: '' },
    },
    { type: 'deprecation', age: 1, url: 'https://pariksha.example/', user_agent: 'Chrome', body: { id: 'x', message: 'y' } },
  ];
  /** A report from its own address (TRUST_PROXY server), so each test has its own budget. */
  const report = (ip: string, type: string, body: string, extra: Record<string, string> = {}) =>
    fetch(`${base(proxied)}/api/csp-report`, { method: 'POST', headers: { 'content-type': type, 'x-forwarded-for': ip, ...extra }, body });

  test('a report-uri violation report is logged, without query or fragment, and answered 204', async () => {
    const warn = vi.spyOn(h.deps.log, 'warn');
    try {
      const res = await report('10.0.0.1', 'application/csp-report', JSON.stringify(legacy));
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      const calls = warn.mock.calls.filter((c) => c[1] === 'csp violation');
      expect(calls).toHaveLength(1);
      expect(calls[0]?.[0]).toMatchObject({
        csp: { documentURL: 'https://pariksha.example/reset', blockedURL: 'inline', directive: 'script-src-elem', disposition: 'enforce', sourceFile: 'https://pariksha.example/assets/index.js', line: 12, column: 3, sample: 'alert(1)' },
      });
      expect(JSON.stringify(calls[0]?.[0])).not.toContain('123456');
    } finally {
      warn.mockRestore();
    }
  });

  test('a Reporting API batch is logged one violation at a time and answered 204; other report types are not violations', async () => {
    const warn = vi.spyOn(h.deps.log, 'warn');
    try {
      const res = await report('10.0.0.2', 'application/reports+json', JSON.stringify(reporting));
      expect(res.status).toBe(204);
      const calls = warn.mock.calls.filter((c) => c[1] === 'csp violation');
      expect(calls).toHaveLength(1);
      expect(calls[0]?.[0]).toMatchObject({ csp: { documentURL: 'https://pariksha.example/exam-list', blockedURL: 'https://evil.example/x.js', directive: 'script-src-elem', line: 1, column: 9 } });
    } finally {
      warn.mockRestore();
    }
  });

  test('bad report bodies get 4xx and log nothing', async () => {
    const warn = vi.spyOn(h.deps.log, 'warn');
    try {
      const cases: [string, string, string, number, string][] = [
        ['JSON of the wrong type', 'application/json', JSON.stringify(legacy), 400, MSG.cspReportType],
        ['plain text', 'text/plain', 'hello', 400, MSG.cspReportType],
        ['malformed JSON', 'application/csp-report', '{"csp-report":', 400, MSG.invalidJson],
        ['not a report', 'application/csp-report', '{}', 400, MSG.cspReportInvalid],
        ['a report that is a string', 'application/csp-report', '{"csp-report":"x"}', 400, MSG.cspReportInvalid],
        ['an empty batch', 'application/reports+json', '[]', 400, MSG.cspReportInvalid],
        ['a batch of the other format', 'application/reports+json', JSON.stringify(legacy), 400, MSG.cspReportInvalid],
        ['too large', 'application/csp-report', JSON.stringify({ 'csp-report': { 'script-sample': 'x'.repeat(20_000) } }), 413, MSG.payloadTooLarge],
      ];
      for (const [what, type, body, status, msg] of cases) {
        const res = await report('10.0.0.3', type, body);
        expect(res.status, what).toBe(status);
        expect(await res.json(), what).toMatchObject({ success: false, msg });
      }
      // A chunked body (no Content-Length) is counted as it streams.
      const chunk = new TextEncoder().encode(`{"csp-report":{"script-sample":"${'x'.repeat(4096)}`);
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 8; i++) controller.enqueue(chunk);
          controller.close();
        },
      });
      const chunked = await fetch(`${base(proxied)}/api/csp-report`, {
        method: 'POST',
        headers: { 'content-type': 'application/csp-report', 'x-forwarded-for': '10.0.0.3' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      expect(chunked.status).toBe(413);
      expect(warn.mock.calls.filter((c) => c[1] === 'csp violation')).toHaveLength(0);
    } finally {
      warn.mockRestore();
    }
  });

  test('reports are rate limited per address: after 20 reports, of 60 parallel ones from that address exactly 40 are taken', async () => {
    const body = JSON.stringify(legacy);
    // Through the app without TCP: 80 new connections from one source at once would be a storm,
    // which the load shedder (not the rate limit) refuses first (tests/security/load-shedding).
    const send = () =>
      behindProxy.request('/api/csp-report', { method: 'POST', headers: { 'content-type': 'application/csp-report', 'x-forwarded-for': '10.0.0.4' }, body });
    for (let i = 0; i < 20; i++) expect((await send()).status).toBe(204);
    const answers = await Promise.all(Array.from({ length: 60 }, send));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 204)).toHaveLength(40);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    // Another address keeps its own budget.
    expect((await report('10.0.0.5', 'application/csp-report', body)).status).toBe(204);
  });
});

describe('links are checked by parsing them', () => {
  let admin: string;
  beforeAll(async () => {
    admin = await h.tokenOf('admin');
  });
  const slide = {
    src: '/images/slide.webp',
    headline: { en: 'Mock tests every week', hi: 'हर सप्ताह मॉक टेस्ट' },
    text: { en: '', hi: '' },
    callToActionText: { en: 'Start', hi: 'शुरू करें' },
    linkToAction: '/exam-list',
    type: 'internal',
  };
  const post = (body: unknown) => h.request('POST', '/banner', { token: admin, body });
  const stored = async () => (await h.request('GET', '/banner/all', { token: admin })).body.data as { linkToAction: string; src: string }[];

  test('an internal banner link is a path of this site: paths a browser takes to another host are refused', async () => {
    const before = (await stored()).length;
    for (const bad of [
      '/\\evil.example',
      '\\/evil.example',
      '//evil.example',
      '/\t/evil.example',
      '/.//evil.example',
      '/x/..//evil.example',
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'http://evil.example',
      'https://evil.example',
      'evil.example',
      '',
    ]) {
      const r = await post({ ...slide, linkToAction: bad });
      expect(r.status, bad).toBe(400);
      expect(r.body.msg, bad).toBe(MSG.bannerLinkInternal);
    }
    expect(await stored()).toHaveLength(before);
  });

  test('an external banner link is an https address of another site', async () => {
    for (const bad of ['http://evil.example', 'javascript:alert(1)', '/plan', '//evil.example', 'https://pariksha.example@evil.example/', 'https://', 'ftp://files.example/x']) {
      const r = await post({ ...slide, type: 'external', linkToAction: bad });
      expect(r.status, bad).toBe(400);
      expect(r.body.msg, bad).toBe(MSG.bannerLinkExternal);
    }
  });

  test('a banner image is an https address or a file of this site', async () => {
    for (const bad of ['/\\evil.example/x.png', '//evil.example/x.png', 'http://evil.example/x.png', 'javascript:alert(1)', 'data:image/svg+xml,<svg onload=alert(1)>', '']) {
      const r = await post({ ...slide, src: bad });
      expect(r.status, bad).toBe(400);
      expect(r.body.msg, bad).toBe(MSG.bannerImage);
    }
  });

  test('good links are accepted, on create and on update; an update is checked as strictly', async () => {
    const internal = await post({ ...slide, linkToAction: '/exam-list?tag=ssc#top', src: 'https://cdn.example.org/slide.webp' });
    expect(internal.status).toBe(201);
    const external = await post({ ...slide, type: 'external', linkToAction: 'https://give.example.org/campaign?x=1' });
    expect(external.status).toBe(201);
    const id = internal.body.data.id as string;
    expect((await h.request('PUT', '/banner', { token: admin, body: { ...slide, id, linkToAction: '/plan' } })).status).toBe(200);
    const bad = await h.request('PUT', '/banner', { token: admin, body: { ...slide, id, linkToAction: '/\\evil.example' } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe(MSG.bannerLinkInternal);
    expect((await stored()).find((b) => b.linkToAction === '/plan')).toBeTruthy();
  });

  test('links and images in rich text are checked by parsing them too', async () => {
    const content =
      '<p><a href="/\\evil.example">a</a><a href="/.//evil.example">b</a><a href="https://site.example@evil.example/">c</a>' +
      '<a href="/plan">d</a><a href="https://example.org/x">e</a><img src="http://img.example/a.png"><img src="//evil.example/b.png"></p>';
    const r = await h.request('PUT', '/static-page', { token: admin, body: { key: 'about', lang: 'en', html: content, baseVersion: 0 } });
    expect(r.status).toBe(200);
    const page = (await h.request('GET', '/static-page/about')).body.data.content.en as string;
    expect(page).toBe('<p><a>a</a><a>b</a><a>c</a><a href="/plan">d</a><a href="https://example.org/x">e</a><img src="https://img.example/a.png" /></p>');
  });
});

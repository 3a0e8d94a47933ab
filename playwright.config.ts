import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * Debian's Chromium where present (CI installs it); Playwright's own browser elsewhere. Its
 * headless shell first, as Playwright itself prefers for headless runs: the same engine without the
 * full browser's user interface process work (docs/development.md "End-to-end tests").
 */
const systemChromium = [process.env.E2E_CHROMIUM, '/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));
const PORT = Number(process.env.E2E_PORT ?? 8181);
// Each run gets a fresh data directory so that tests start from the seeded demo data.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'pm-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

/*
 * Lanes (docs/development.md, "End-to-end tests"): the spec files are dealt to E2E_LANES lanes
 * (default 3), each a Playwright project with one worker and a server of its own on its own
 * database (port PORT + lane, data directory E2E_DATA_DIR/laneN), so that the lanes run side by
 * side while the specs of one lane still meet one server one at a time, in file order. Files are
 * dealt longest first to the lane with the least time so far: a spec's time is the seconds
 * e2e/lane-weights.json measured for it, or for a spec not measured yet its size at the measured
 * bytes per second.
 */
const LANES = Math.max(1, Number(process.env.E2E_LANES ?? 3));
const weights = JSON.parse(readFileSync('e2e/lane-weights.json', 'utf8')) as { secondsPerSpec: Record<string, number>; bytesPerSecond: number };
const specs = readdirSync('e2e')
  .filter((f) => f.endsWith('.spec.ts'))
  .map((f) => ({ f, seconds: weights.secondsPerSpec[f] ?? statSync(path.join('e2e', f)).size / weights.bytesPerSecond }))
  .sort((a, b) => b.seconds - a.seconds || a.f.localeCompare(b.f));
const lanes = Array.from({ length: LANES }, (_, i) => ({ name: `lane${i + 1}`, port: PORT + i, dataDir: path.join(dataDir, `lane${i + 1}`), files: [] as string[], seconds: 0 }));
for (const { f, seconds } of specs) {
  const lane = lanes.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  lane.files.push(f);
  lane.seconds += seconds;
}
for (const lane of lanes) mkdirSync(lane.dataDir, { recursive: true });

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: LANES,
  // One retry: a test that fails once on a loaded CI machine and then passes is reported "flaky" in
  // the list (read it there); one that fails twice fails the run.
  retries: 1,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    // A trace is recorded for a retry only: recording every test's trace cost a quarter of the
    // browser's and the runner's CPU (docs/development.md "End-to-end tests"). A test that fails
    // twice leaves the trace of its second run.
    trace: 'on-first-retry',
    // No service worker unless a spec asks for one (`test.use({ serviceWorkers: 'allow' })`: the
    // offline, PWA and caching specs). Each test's fresh browser context would otherwise install the
    // worker and precache the whole app, which tripled Chromium's CPU for a login and a page.
    serviceWorkers: 'block',
    ...devices['Desktop Chrome'],
    launchOptions: {
      ...(systemChromium && { executablePath: systemChromium }),
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: lanes.map((lane) => ({
    name: lane.name,
    workers: 1,
    testMatch: lane.files,
    // helpers.ts serverDataDir() reads it: the lane's database and local inbox.
    metadata: { dataDir: lane.dataDir },
    use: { baseURL: `http://127.0.0.1:${lane.port}` },
  })),
  webServer: lanes.map((lane) => ({
    command: 'node scripts/start.mjs',
    url: `http://127.0.0.1:${lane.port}/api/health`,
    reuseExistingServer: false,
    // E2E_SERVER_LOG=1 shows the server's warnings and errors while debugging a spec.
    stdout: process.env.E2E_SERVER_LOG ? ('pipe' as const) : ('ignore' as const),
    timeout: 180_000,
    env: { PORT: String(lane.port), HOST: '127.0.0.1', DATA_DIR: lane.dataDir, LOG_LEVEL: 'warn', PUBLISH_INTERVAL_S: '1', SCORE_DIST_INTERVAL_S: '1' },
  })),
});

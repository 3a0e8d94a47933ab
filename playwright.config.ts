import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/** Debian's Chromium where present (CI installs it); Playwright's own browser elsewhere. */
const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const PORT = Number(process.env.E2E_PORT ?? 8181);
// Each run gets a fresh database so that tests start from the seeded demo data.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'pm-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  // One retry: a test that fails once on a loaded CI machine and then passes is reported "flaky" in
  // the list (read it there); one that fails twice fails the run.
  retries: 1,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: {
      ...(systemChromium && { executablePath: systemChromium }),
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: 'node scripts/start.mjs',
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    // E2E_SERVER_LOG=1 shows the server's warnings and errors while debugging a spec.
    stdout: process.env.E2E_SERVER_LOG ? 'pipe' : 'ignore',
    timeout: 180_000,
    env: { PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', PUBLISH_INTERVAL_S: '1' },
  },
});

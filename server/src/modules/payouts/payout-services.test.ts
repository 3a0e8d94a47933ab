import { expect, test } from 'vitest';
import { EnvError, loadConfig, parseEnv } from '#server/env';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPayoutServices } from './payout-services';

/* PAYOUT_PROVIDER (docs/configuration.md "Payouts"): the sandbox by default outside production, refused there unless allowed. */

const production = { NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: 'true', PUBLIC_URL: 'https://pm.example' };
const rzpx = { RAZORPAYX_KEY_ID: 'rzp_live_x', RAZORPAYX_KEY_SECRET: 's', RAZORPAYX_ACCOUNT_NUMBER: '7878780080316316', RAZORPAYX_WEBHOOK_SECRET: 'w' };
const services = (env: Record<string, string>) => createPayoutServices(loadConfig(parseEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'pm-payouts-')), ...env })));

test('outside production the sandbox pays out by default', () => {
  expect(parseEnv({}).PAYOUT_PROVIDER).toBe('sandbox');
  const s = services({});
  expect(s.sandbox).not.toBeNull();
  expect(s.adapter).not.toBeNull();
});

test('in production: unset is payouts off; sandbox refused unless allowed; razorpayx needs its four keys', () => {
  expect(parseEnv(production).PAYOUT_PROVIDER).toBeUndefined();
  expect(services(production)).toEqual({ adapter: null, sandbox: null });
  expect(() => parseEnv({ ...production, PAYOUT_PROVIDER: 'sandbox' })).toThrow(EnvError);
  expect(parseEnv({ ...production, PAYOUT_PROVIDER: 'sandbox', ALLOW_SANDBOX_PAYOUTS_IN_PRODUCTION: 'true' }).PAYOUT_PROVIDER).toBe('sandbox');
  expect(() => parseEnv({ ...production, PAYOUT_PROVIDER: 'razorpayx', RAZORPAYX_KEY_ID: 'x' })).toThrow(/RAZORPAYX_KEY_SECRET is required/);
  const real = services({ ...production, PAYOUT_PROVIDER: 'razorpayx', ...rzpx });
  expect(real.sandbox).toBeNull();
  expect(real.adapter).not.toBeNull();
  expect(() => parseEnv({ WORKING_HOLIDAYS: '15-08-2026' })).toThrow(/WORKING_HOLIDAYS/);
  expect(parseEnv({ WORKING_HOLIDAYS: '2026-08-15, 2026-10-02' }).WORKING_HOLIDAYS).toBe('2026-08-15, 2026-10-02');
});

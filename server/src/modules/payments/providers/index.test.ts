import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadConfig, parseEnv } from '#server/env';
import { providersFor } from './index';
import { sandboxEnabled } from './sandbox-phonepe';

/** PAYMENT_PROVIDER and the provider keys (env.ts), and what providersFor builds from them. */

const dir = mkdtempSync(path.join(tmpdir(), 'pm-providers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const base = { DATA_DIR: dir, LOG_LEVEL: 'silent' };
/** What every production start needs besides its provider (env.ts). */
const site = { PUBLIC_URL: 'https://parikshamitra.example' };
const phonepeKeys = {
  PHONEPE_CLIENT_ID: 'M_TEST',
  PHONEPE_CLIENT_SECRET: 'secret',
  PHONEPE_CLIENT_VERSION: '1',
  PHONEPE_WEBHOOK_USER: 'pariksha_hook',
  PHONEPE_WEBHOOK_PASSWORD: 'hookpass123',
};
const razorpayKeys = { RAZORPAY_KEY_ID: 'rzp_test_1', RAZORPAY_KEY_SECRET: 'k', RAZORPAY_WEBHOOK_SECRET: 'w' };

describe('PAYMENT_PROVIDER', () => {
  test('defaults to the sandbox outside production, PhonePe UAT hosts for PHONEPE_ENV', () => {
    for (const NODE_ENV of [undefined, 'development', 'test']) {
      const env = parseEnv({ ...base, ...(NODE_ENV ? { NODE_ENV } : {}) });
      expect(env.PAYMENT_PROVIDER).toBe('sandbox');
      expect(env.PHONEPE_ENV).toBe('sandbox');
    }
  });

  test('is required in production: the start is refused without it', () => {
    expect(() => parseEnv({ ...base, ...site, NODE_ENV: 'production' })).toThrow(/PAYMENT_PROVIDER is required when NODE_ENV=production/);
    expect(parseEnv({ ...base, ...site, NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: 'true' }).PAYMENT_PROVIDER).toBe('sandbox');
    expect(parseEnv({ ...base, ...site, NODE_ENV: 'production', PAYMENT_PROVIDER: 'phonepe', ...phonepeKeys }).PHONEPE_ENV).toBe('production');
  });

  test('a provider without its keys is refused, naming each missing key; an unknown provider too', () => {
    expect(() => parseEnv({ ...base, PAYMENT_PROVIDER: 'phonepe', PHONEPE_CLIENT_ID: 'x' })).toThrow(
      /PHONEPE_CLIENT_SECRET is required when PAYMENT_PROVIDER=phonepe.*PHONEPE_WEBHOOK_PASSWORD is required/,
    );
    expect(() => parseEnv({ ...base, PAYMENT_PROVIDER: 'razorpay', RAZORPAY_KEY_ID: 'x', RAZORPAY_KEY_SECRET: 'y' })).toThrow(/RAZORPAY_WEBHOOK_SECRET is required/);
    expect(() => parseEnv({ ...base, PAYMENT_PROVIDER: 'paytm' })).toThrow(/PAYMENT_PROVIDER/);
    expect(() => parseEnv({ ...base, PHONEPE_ENV: 'uat' })).toThrow(/PHONEPE_ENV/);
  });
});

describe('providersFor', () => {
  test('is built once per configuration', () => {
    const config = loadConfig(parseEnv(base));
    expect(providersFor(config)).toBe(providersFor(config));
    expect(providersFor(config).get('phonepe')).toBe(providersFor(config).get('phonepe'));
    expect(providersFor(loadConfig(parseEnv(base)))).not.toBe(providersFor(config));
  });

  test('razorpay: the default, and PhonePe still reachable through the sandbox outside production', () => {
    const config = loadConfig(parseEnv({ ...base, PAYMENT_PROVIDER: 'razorpay', ...razorpayKeys }));
    const p = providersFor(config);
    expect(p.defaultName).toBe('razorpay');
    expect(p.get('razorpay').name).toBe('razorpay');
    expect(p.get('razorpay').verifyCheckoutSignature).toBeTypeOf('function');
    expect(p.has('phonepe')).toBe(true);
  });

  test('production with PhonePe: no sandbox, no Razorpay without keys; an unknown name is 404, never a prototype key', () => {
    const config = loadConfig(parseEnv({ ...base, ...site, NODE_ENV: 'production', PAYMENT_PROVIDER: 'phonepe', ...phonepeKeys }));
    expect(sandboxEnabled(config)).toBe(false);
    const p = providersFor(config);
    expect(p.defaultName).toBe('phonepe');
    expect(p.get('phonepe').name).toBe('phonepe');
    expect(p.has('razorpay')).toBe(false);
    expect(() => p.get('razorpay')).toThrow(expect.objectContaining({ status: 404 }));
    for (const name of ['constructor', '__proto__', 'toString', 'paytm']) {
      expect(p.has(name as 'phonepe')).toBe(false);
      expect(() => p.get(name as 'phonepe')).toThrow(expect.objectContaining({ status: 404 }));
    }
  });

  test('production with Razorpay only: PhonePe is not available', () => {
    const config = loadConfig(parseEnv({ ...base, ...site, NODE_ENV: 'production', PAYMENT_PROVIDER: 'razorpay', ...razorpayKeys }));
    expect(providersFor(config).has('phonepe')).toBe(false);
  });
});

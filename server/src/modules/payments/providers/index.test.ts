import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadConfig, parseEnv } from '#server/env';
import { createPaymentServices, createProviders } from './index';
import { createPhonePeSandbox, sandboxEnabled } from './sandbox-phonepe';

/** PAYMENT_PROVIDER and the provider keys (env.ts), and what createPaymentServices builds from them. */

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

describe('createPaymentServices', () => {
  test('builds each adapter once, and new ones (with a new sandbox) on every call', () => {
    const config = loadConfig(parseEnv(base));
    const { providers, sandbox } = createPaymentServices(config);
    expect(sandbox).not.toBeNull();
    expect(providers.get('phonepe')).toBe(providers.get('phonepe'));
    const again = createPaymentServices(config);
    expect(again.providers.get('phonepe')).not.toBe(providers.get('phonepe'));
    expect(again.sandbox).not.toBe(sandbox);
    expect(again.sandbox?.credentials.clientSecret).not.toBe(sandbox?.credentials.clientSecret);
  });

  test("'phonepe' is the sandbox's only when PhonePe itself is not configured", () => {
    const config = loadConfig(parseEnv(base));
    expect(createProviders(config, createPhonePeSandbox(config)).sandboxed('phonepe')).toBe(true);
    expect(createProviders(config, null).has('phonepe')).toBe(false);
    const real = loadConfig(parseEnv({ ...base, PAYMENT_PROVIDER: 'phonepe', ...phonepeKeys }));
    expect(createProviders(real, createPhonePeSandbox(real)).sandboxed('phonepe')).toBe(false);
  });

  test('razorpay: the default, and PhonePe still reachable through the sandbox outside production', () => {
    const config = loadConfig(parseEnv({ ...base, PAYMENT_PROVIDER: 'razorpay', ...razorpayKeys }));
    const p = createPaymentServices(config).providers;
    expect(p.defaultName).toBe('razorpay');
    expect(p.get('razorpay').name).toBe('razorpay');
    expect(p.get('razorpay').verifyCheckoutSignature).toBeTypeOf('function');
    expect(p.has('phonepe')).toBe(true);
  });

  test('production with PhonePe: no sandbox, no Razorpay without keys; an unknown name is 404, never a prototype key', () => {
    const config = loadConfig(parseEnv({ ...base, ...site, NODE_ENV: 'production', PAYMENT_PROVIDER: 'phonepe', ...phonepeKeys }));
    expect(sandboxEnabled(config)).toBe(false);
    const { providers: p, sandbox } = createPaymentServices(config);
    expect(sandbox).toBeNull();
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
    expect(createPaymentServices(config).providers.has('phonepe')).toBe(false);
  });
});

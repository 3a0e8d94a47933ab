import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { EnvError, loadConfig, parseEnv } from '#server/env';
import { SMS_KINDS, SMS_LANGS } from './templates';
import { createSmsServices } from './sms-services';

/* SMS_PROVIDER (docs/sms.md "Providers and configuration"): the sandbox by default outside production, refused there unless allowed. */

const production = { NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: 'true', PUBLIC_URL: 'https://pm.example' };
const twilio = { SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`, TWILIO_AUTH_TOKEN: 't', SMS_SENDER_ID: 'PMITRA' };
const allIds = SMS_KINDS.flatMap((k) => SMS_LANGS.map((l) => `${k}.${l}=1207${k.length}${l}`)).join(',');
const msg91 = { SMS_PROVIDER: 'msg91', MSG91_AUTH_KEY: 'k', MSG91_WEBHOOK_TOKEN: 'a-long-secret-token', SMS_SENDER_ID: 'PMITRA', SMS_DLT_ENTITY_ID: '1201160000000000001', SMS_TEMPLATE_IDS: allIds };
const services = (env: Record<string, string>) => createSmsServices(loadConfig(parseEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'pm-sms-')), ...env })), { inboxFile: null });

test('outside production the sandbox carries SMS by default, speaking Twilio unless told MSG91', () => {
  expect(parseEnv({}).SMS_PROVIDER).toBe('sandbox');
  expect(services({}).adapter?.provider).toBe('twilio');
  expect(services({ SMS_SANDBOX_PROTOCOL: 'msg91' }).adapter?.provider).toBe('msg91');
  expect(services({}).sandbox).not.toBeNull();
});

test('in production: unset is the log only (as before); sandbox refused unless allowed; a provider needs its keys', () => {
  expect(parseEnv(production).SMS_PROVIDER).toBeUndefined();
  expect(services(production)).toEqual({ adapter: null, sandbox: null });
  expect(() => parseEnv({ ...production, SMS_PROVIDER: 'sandbox' })).toThrow(/ALLOW_SANDBOX_SMS_IN_PRODUCTION/);
  expect(parseEnv({ ...production, SMS_PROVIDER: 'sandbox', ALLOW_SANDBOX_SMS_IN_PRODUCTION: 'true' }).SMS_PROVIDER).toBe('sandbox');
  expect(() => parseEnv({ ...production, SMS_PROVIDER: 'twilio' })).toThrow(/TWILIO_ACCOUNT_SID is required/);
  expect(() => parseEnv({ ...production, ...twilio, TWILIO_ACCOUNT_SID: 'AC12' })).toThrow(/TWILIO_ACCOUNT_SID must be/);
  const real = services({ ...production, ...twilio });
  expect(real.sandbox).toBeNull();
  expect(real.adapter?.provider).toBe('twilio');
  expect(() => parseEnv({ ...production, ...msg91, MSG91_WEBHOOK_TOKEN: undefined as unknown as string })).toThrow(/MSG91_WEBHOOK_TOKEN is required/);
  expect(services({ ...production, ...msg91 }).adapter?.provider).toBe('msg91');
});

test('MSG91 refuses to start without a template id for every kind and language', () => {
  expect(() => parseEnv({ SMS_TEMPLATE_IDS: 'reset_code=12' })).toThrow(/SMS_TEMPLATE_IDS must be/);
  const some = allIds.split(',').slice(1).join(',');
  expect(() => services({ ...production, ...msg91, SMS_TEMPLATE_IDS: some })).toThrow(EnvError);
  expect(() => services({ ...production, ...msg91, SMS_TEMPLATE_IDS: some })).toThrow(/missing reset_code.en/);
});

import type { Provider } from '@pm/protocol/payment';
import { MSG } from '@pm/protocol/messages';
import type { Config } from '#server/env';
import { AppError } from '#server/lib/errors';
import type { PaymentProvider } from '../provider';
import { createPhonePeProvider, PHONEPE_HOSTS } from './phonepe';
import { createRazorpayProvider } from './razorpay';
import { SANDBOX_BASE_URL, sandboxCredentials, sandboxEnabled, sandboxFetch } from './sandbox-phonepe';

/*
 * The payment providers of an installation, chosen by the environment (env.ts, docs/configuration.md
 * "Environment"; ARCHITECTURE decision 9):
 *
 * - PAYMENT_PROVIDER=sandbox (the default outside production): 'phonepe' is the real PhonePe
 *   adapter with the sandbox's credentials, pointed at our own /sandbox/phonepe through the
 *   app's in-process fetch.
 * - PAYMENT_PROVIDER=phonepe: 'phonepe' is PhonePe itself (PHONEPE_ENV picks UAT or live hosts).
 * - PAYMENT_PROVIDER=razorpay: 'razorpay' is Razorpay.
 *
 * The other name is available too when it can be: Razorpay whenever its keys are set, PhonePe
 * when its keys are set, else the sandbox's PhonePe where the sandbox runs (not in production
 * unless chosen). `defaultName` is what new orders use.
 */

export type Providers = {
  /** The provider new payments go to. */
  readonly defaultName: Provider;
  /** Whether `get(name)` has an adapter. */
  has(name: Provider): boolean;
  /** The adapter; 404 when this installation has no such provider (an /api/{provider}/… path). */
  get(name: Provider): PaymentProvider;
  /** Whether `name` is the sandbox: its payments moved no money (their receipts say SANDBOX). */
  sandboxed(name: Provider): boolean;
};

const memo = new WeakMap<Config, Providers>();

function phonePeKeys(config: Config) {
  const { PHONEPE_CLIENT_ID, PHONEPE_CLIENT_SECRET, PHONEPE_CLIENT_VERSION, PHONEPE_WEBHOOK_USER, PHONEPE_WEBHOOK_PASSWORD } = config;
  if (!PHONEPE_CLIENT_ID || !PHONEPE_CLIENT_SECRET || !PHONEPE_CLIENT_VERSION || !PHONEPE_WEBHOOK_USER || !PHONEPE_WEBHOOK_PASSWORD) return null;
  return {
    clientId: PHONEPE_CLIENT_ID,
    clientSecret: PHONEPE_CLIENT_SECRET,
    clientVersion: PHONEPE_CLIENT_VERSION,
    webhookUser: PHONEPE_WEBHOOK_USER,
    webhookPassword: PHONEPE_WEBHOOK_PASSWORD,
  };
}

/** Whether 'phonepe' is the sandbox's PhonePe rather than PhonePe itself (buildPhonePe). */
function phonePeIsSandbox(config: Config): boolean {
  return !(phonePeKeys(config) && config.PAYMENT_PROVIDER !== 'sandbox') && sandboxEnabled(config);
}

function buildPhonePe(config: Config): PaymentProvider | null {
  const keys = phonePeKeys(config);
  if (keys && config.PAYMENT_PROVIDER !== 'sandbox') {
    const hosts = PHONEPE_HOSTS[config.PHONEPE_ENV];
    return createPhonePeProvider({ baseUrl: hosts.pg, authBaseUrl: hosts.oauth, ...keys });
  }
  if (!phonePeIsSandbox(config)) return null;
  const c = sandboxCredentials(config);
  return createPhonePeProvider({
    baseUrl: SANDBOX_BASE_URL,
    clientId: c.clientId,
    clientSecret: c.clientSecret,
    clientVersion: c.clientVersion,
    webhookUser: c.webhookUser,
    webhookPassword: c.webhookPassword,
    fetch: sandboxFetch(config),
  });
}

function buildRazorpay(config: Config): PaymentProvider | null {
  const { RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET } = config;
  if (!RAZORPAY_KEY_ID || !RAZORPAY_KEY_SECRET || !RAZORPAY_WEBHOOK_SECRET) return null;
  return createRazorpayProvider({ keyId: RAZORPAY_KEY_ID, keySecret: RAZORPAY_KEY_SECRET, webhookSecret: RAZORPAY_WEBHOOK_SECRET });
}

/** The providers of this configuration, built once per Config (their token caches live there). */
export function providersFor(config: Config): Providers {
  let p = memo.get(config);
  if (!p) {
    const adapters: Record<Provider, PaymentProvider | null> = { phonepe: buildPhonePe(config), razorpay: buildRazorpay(config) };
    const defaultName: Provider = config.PAYMENT_PROVIDER === 'razorpay' ? 'razorpay' : 'phonepe';
    // A name straight from a path (/api/{provider}/…) is looked up as an own key only.
    const lookup = (name: string) => (Object.hasOwn(adapters, name) ? adapters[name as Provider] : null);
    const sandboxPhonePe = adapters.phonepe !== null && phonePeIsSandbox(config);
    p = {
      defaultName,
      has: (name) => lookup(name) !== null,
      get(name) {
        const a = lookup(name);
        if (!a) throw new AppError('NOT_FOUND', MSG.notFound);
        return a;
      },
      sandboxed: (name) => name === 'phonepe' && sandboxPhonePe,
    };
    memo.set(config, p);
  }
  return p;
}

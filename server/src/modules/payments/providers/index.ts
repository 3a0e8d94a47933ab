import type { Provider } from '@pm/protocol/payment';
import { MSG } from '@pm/protocol/messages';
import type { Config } from '#server/env';
import { AppError } from '#server/lib/errors';
import type { PaymentProvider } from '../provider';
import { createPhonePeProvider, PHONEPE_HOSTS } from './phonepe';
import { createRazorpayProvider } from './razorpay';
import { createPhonePeSandbox, type PhonePeSandbox, SANDBOX_BASE_URL, sandboxCredentials, sandboxEnabled, sandboxFetch } from './sandbox-phonepe';

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
 *
 * The composition root builds them once per app (compose.ts, `deps.payments`): the adapters keep
 * their access tokens, and the sandbox its orders, for the app's lifetime.
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

/** An app's payment services (`deps.payments`): its providers and its sandbox, if it runs one. */
export type PaymentServices = {
  providers: Providers;
  /** The local PhonePe (sandbox-phonepe.ts); null where sandboxEnabled is false. */
  sandbox: PhonePeSandbox | null;
};

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

/** Whether PhonePe itself is configured: its keys, and PAYMENT_PROVIDER not asking for the sandbox. */
const realPhonePe = (config: Config) => phonePeKeys(config) !== null && config.PAYMENT_PROVIDER !== 'sandbox';

function buildPhonePe(config: Config, sandbox: PhonePeSandbox | null): PaymentProvider | null {
  const keys = phonePeKeys(config);
  if (keys && config.PAYMENT_PROVIDER !== 'sandbox') {
    const hosts = PHONEPE_HOSTS[config.PHONEPE_ENV];
    return createPhonePeProvider({ baseUrl: hosts.pg, authBaseUrl: hosts.oauth, ...keys });
  }
  if (!sandbox) return null;
  const c = sandboxCredentials(sandbox);
  return createPhonePeProvider({
    baseUrl: SANDBOX_BASE_URL,
    clientId: c.clientId,
    clientSecret: c.clientSecret,
    clientVersion: c.clientVersion,
    webhookUser: c.webhookUser,
    webhookPassword: c.webhookPassword,
    fetch: sandboxFetch(sandbox),
  });
}

function buildRazorpay(config: Config): PaymentProvider | null {
  const { RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET } = config;
  if (!RAZORPAY_KEY_ID || !RAZORPAY_KEY_SECRET || !RAZORPAY_WEBHOOK_SECRET) return null;
  return createRazorpayProvider({ keyId: RAZORPAY_KEY_ID, keySecret: RAZORPAY_KEY_SECRET, webhookSecret: RAZORPAY_WEBHOOK_SECRET });
}

/**
 * The providers of this configuration, each adapter built now (its token cache lives in it).
 * 'phonepe' goes to `sandbox` unless PhonePe itself is configured; without a sandbox it is
 * PhonePe itself or nothing.
 */
export function createProviders(config: Config, sandbox: PhonePeSandbox | null): Providers {
  const adapters: Record<Provider, PaymentProvider | null> = { phonepe: buildPhonePe(config, sandbox), razorpay: buildRazorpay(config) };
  const defaultName: Provider = config.PAYMENT_PROVIDER === 'razorpay' ? 'razorpay' : 'phonepe';
  // A name straight from a path (/api/{provider}/…) is looked up as an own key only.
  const lookup = (name: string) => (Object.hasOwn(adapters, name) ? adapters[name as Provider] : null);
  const sandboxPhonePe = adapters.phonepe !== null && !realPhonePe(config);
  return {
    defaultName,
    has: (name) => lookup(name) !== null,
    get(name) {
      const a = lookup(name);
      if (!a) throw new AppError('NOT_FOUND', MSG.notFound);
      return a;
    },
    sandboxed: (name) => name === 'phonepe' && sandboxPhonePe,
  };
}

/**
 * An app's payment services (compose.ts): the sandbox where this installation runs one
 * (sandboxEnabled: not in production unless PAYMENT_PROVIDER=sandbox), and the providers over it.
 */
export function createPaymentServices(config: Config): PaymentServices {
  const sandbox = sandboxEnabled(config) ? createPhonePeSandbox(config) : null;
  return { providers: createProviders(config, sandbox), sandbox };
}

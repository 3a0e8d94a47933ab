import type { Config } from '#server/env';
import type { PayoutAdapter } from './payout-adapter';
import { createRazorpayXAdapter } from './razorpayx';
import { createRazorpayXSandbox, payoutSandboxEnabled, payoutSandboxFetch, RAZORPAYX_SANDBOX_BASE_URL, type RazorpayXSandbox } from './sandbox-razorpayx';

/** An app's payout services (`deps.payouts`): the adapter, and the sandbox it talks to where one runs. */
export type PayoutServices = {
  /** Null where payouts are off (production without PAYOUT_PROVIDER). */
  adapter: PayoutAdapter | null;
  sandbox: RazorpayXSandbox | null;
};

/**
 * Chosen by PAYOUT_PROVIDER (env.ts; docs/configuration.md "Payouts"): `razorpayx` is RazorpayX
 * itself; `sandbox` the same adapter pointed at our own /sandbox/razorpayx through the app's
 * in-process fetch (app.ts mounts it), so that tests run the real adapter's code.
 */
export function createPayoutServices(config: Config): PayoutServices {
  if (payoutSandboxEnabled(config)) {
    const sandbox = createRazorpayXSandbox();
    const c = sandbox.credentials;
    const adapter = createRazorpayXAdapter({ baseUrl: RAZORPAYX_SANDBOX_BASE_URL, ...c, fetch: payoutSandboxFetch(sandbox), sleep: () => Promise.resolve() });
    return { adapter, sandbox };
  }
  const { RAZORPAYX_KEY_ID, RAZORPAYX_KEY_SECRET, RAZORPAYX_ACCOUNT_NUMBER, RAZORPAYX_WEBHOOK_SECRET } = config;
  if (config.PAYOUT_PROVIDER !== 'razorpayx' || !RAZORPAYX_KEY_ID || !RAZORPAYX_KEY_SECRET || !RAZORPAYX_ACCOUNT_NUMBER || !RAZORPAYX_WEBHOOK_SECRET) return { adapter: null, sandbox: null };
  return {
    adapter: createRazorpayXAdapter({ keyId: RAZORPAYX_KEY_ID, keySecret: RAZORPAYX_KEY_SECRET, accountNumber: RAZORPAYX_ACCOUNT_NUMBER, webhookSecret: RAZORPAYX_WEBHOOK_SECRET }),
    sandbox: null,
  };
}

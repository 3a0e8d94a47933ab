import { type Config, EnvError } from '#server/env';
import type { SmsAdapter } from './adapter';
import { createMsg91Adapter, parseTemplateIds, templateKey } from './msg91';
import { createSmsSandbox, SMS_SANDBOX_BASE_URL, type SmsSandbox, smsSandboxFetch } from './sandbox-sms';
import { SMS_KINDS, SMS_LANGS } from './templates';
import { createTwilioAdapter } from './twilio';

/** An app's SMS services (`deps.sms`): the adapter, and the sandbox it talks to where one runs. */
export type SmsServices = {
  /** Null where no provider is configured (production without SMS_PROVIDER): SMS then go to the log only. */
  adapter: SmsAdapter | null;
  sandbox: SmsSandbox | null;
};

/**
 * Chosen by SMS_PROVIDER (env.ts; docs/sms.md "Providers and configuration"): `msg91` and `twilio`
 * are the providers themselves; `sandbox` is the adapter of SMS_SANDBOX_PROTOCOL pointed at our own
 * /sandbox/sms through the app's in-process fetch (app.ts mounts it), so that tests run the real
 * adapter's code.
 */
export function createSmsServices(config: Config, opts: { inboxFile: string | null }): SmsServices {
  const publicUrl = config.PUBLIC_URL;
  if (config.SMS_PROVIDER === 'sandbox') {
    const sandbox = createSmsSandbox({ protocol: config.SMS_SANDBOX_PROTOCOL, publicUrl, inboxFile: opts.inboxFile, partPricePaise: config.SMS_PART_PRICE_PAISE });
    const fetch = smsSandboxFetch(sandbox);
    const { twilio, msg91 } = sandbox.credentials;
    const adapter =
      sandbox.protocol === 'twilio'
        ? createTwilioAdapter({ baseUrl: SMS_SANDBOX_BASE_URL, ...twilio, publicUrl, fetch })
        : createMsg91Adapter({ baseUrl: SMS_SANDBOX_BASE_URL, authKey: msg91.authKey, webhookToken: msg91.webhookToken, templateIds: msg91.templateIds, fetch });
    return { adapter, sandbox };
  }
  if (config.SMS_PROVIDER === 'twilio' && config.TWILIO_ACCOUNT_SID && config.TWILIO_AUTH_TOKEN && config.SMS_SENDER_ID) {
    return { adapter: createTwilioAdapter({ accountSid: config.TWILIO_ACCOUNT_SID, authToken: config.TWILIO_AUTH_TOKEN, from: config.SMS_SENDER_ID, publicUrl }), sandbox: null };
  }
  if (config.SMS_PROVIDER === 'msg91' && config.MSG91_AUTH_KEY && config.MSG91_WEBHOOK_TOKEN) {
    const templateIds = parseTemplateIds(config.SMS_TEMPLATE_IDS);
    // Every kind in both languages: a message without its template would be refused by MSG91 at
    // the moment a learner waits for a code, so the start is refused instead.
    const missing = SMS_KINDS.flatMap((kind) => SMS_LANGS.map((lang) => templateKey(kind, lang))).filter((key) => !templateIds.has(key));
    if (missing.length > 0) throw new EnvError([{ variable: 'SMS_TEMPLATE_IDS', problem: `required with SMS_PROVIDER=msg91 for every message kind and language; missing ${missing.join(', ')}` }]);
    return { adapter: createMsg91Adapter({ authKey: config.MSG91_AUTH_KEY, webhookToken: config.MSG91_WEBHOOK_TOKEN, templateIds }), sandbox: null };
  }
  return { adapter: null, sandbox: null };
}

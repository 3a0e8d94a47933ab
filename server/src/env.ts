import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_TRUST_NAME } from '@pm/protocol/site';

/** The terms' version of an installation that sets none (TERMS_VERSION); the demo accounts accepted it. */
export const DEFAULT_TERMS_VERSION = '1';

/** The local SMS sandbox's inbound number: SMS_ANSWER_NUMBER's default outside production. */
export const SANDBOX_SMS_NUMBER = '+919999900000';

/** The demo data's trust account (fixtures/accounts.json), TRUST_ACCOUNT's default outside production. */
export const DEMO_TRUST_ACCOUNT = 'demo-trust';

/** The values of PAYMENT_PROVIDER. */
export const PAYMENT_PROVIDERS = ['sandbox', 'phonepe', 'razorpay'] as const;
export type PaymentProviderSetting = (typeof PAYMENT_PROVIDERS)[number];

/** The values of PAYOUT_PROVIDER. */
export const PAYOUT_PROVIDERS = ['sandbox', 'razorpayx'] as const;

/** The values of SMS_PROVIDER (docs/sms.md "Providers and configuration"). */
export const SMS_PROVIDERS = ['sandbox', 'msg91', 'twilio'] as const;

/** The process environment, parsed once; nothing else reads `process.env`. */
const envSchema = z.object({
  /**
   * `production` is a real installation: no demo accounts are seeded, and the server refuses to
   * start while a demo account's published password is in the database (db/seed.ts). Anything
   * else is the demo of `npm start`. An unknown value is an error, so that a typo cannot start
   * a real installation as the demo.
   */
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  /**
   * PostgreSQL instead of the embedded SQLite (docs/cluster.md): `postgres://user:password@host:5432/db`.
   * Unset, the server keeps its database in DATA_DIR/app.db. DATA_DIR still holds the keys.
   */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'DATABASE_URL must be a postgres:// address' })
    .optional(),
  /** The name this instance gives in every response's X-Instance header; the host name and process id by default. */
  INSTANCE_ID: z.string().min(1).max(64).optional(),
  JWT_SECRET: z.string().min(32, { error: 'JWT_SECRET must be at least 32 characters' }).optional(),
  SMTP_URL: z.url().optional(),
  /** Sender address for e-mail sent through SMTP_URL. */
  MAIL_FROM: z.string().min(3).default('Pariksha Mitra <no-reply@localhost>'),
  /**
   * The trust that runs the installation, as the home page, About, the legal pages, the footer and
   * receipts name it (docs/configuration.md); in Hindi, TRUST_NAME_HI. The demo's trust by default.
   */
  TRUST_NAME: z.string().trim().min(3).max(120).default(DEFAULT_TRUST_NAME.en),
  TRUST_NAME_HI: z.string().trim().min(3).max(120).default(DEFAULT_TRUST_NAME.hi),
  /** The trust's postal address, printed on receipts. */
  TRUST_ADDRESS: z.string().trim().min(3).max(300).default('14, Vidya Vihar, Ashok Nagar, Jaipur, Rajasthan 302001, India'),
  /**
   * A trusted proxy stands in front and TLS ends there: the last X-Forwarded-For address (the one
   * the proxy appended) is the client IP, and responses get HSTS unless X-Forwarded-Proto says http (lib/security-headers).
   */
  TRUST_PROXY: z.stringbool().default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** How often the publish job looks for sets whose publish time has come (seconds). */
  PUBLISH_INTERVAL_S: z.coerce.number().int().min(1).max(3600).default(30),
  /** How often sets' score distributions are rebuilt from the results written since (seconds; docs/live-tests.md "Provisional rank on the device"). */
  SCORE_DIST_INTERVAL_S: z.coerce.number().int().min(1).max(3600).default(300),
  /** Directory of the built client; default dist/ at the project root. */
  CLIENT_DIR: z.string().min(1).optional(),
  /**
   * Who takes payments (docs/payments.md "The local sandbox", ARCHITECTURE decision 9): `sandbox` is the local PhonePe
   * that runs inside this server (modules/payments/providers/sandbox-phonepe.ts), `phonepe`
   * PhonePe Standard Checkout v2, `razorpay` Razorpay Orders + Checkout. Defaults to `sandbox`
   * outside production; a production start without it is refused (below), so that a real
   * installation never takes "payments" from the sandbox by accident.
   */
  PAYMENT_PROVIDER: z.enum(PAYMENT_PROVIDERS).optional(),
  /**
   * The sandbox takes no money, so a production start with PAYMENT_PROVIDER=sandbox is refused
   * unless this says it is meant (a trial installation): then every page carries a banner that no
   * money is taken and its receipts say SANDBOX (docs/security.md, "Production that cannot be fooled").
   */
  ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: z.stringbool().default(false),
  /**
   * The site's origin as browsers reach it (`https://parikshamitra.example`): every absolute link
   * the server builds (the payment provider's return address) starts with it, never with the
   * request's Host header (lib/site-url.ts). Required when NODE_ENV=production; elsewhere the
   * listening address (HOST and PORT) by default.
   */
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'PUBLIC_URL must be an http(s) address such as https://parikshamitra.example' })
    .refine((u) => {
      // Not an address at all is the error above.
      if (!URL.canParse(u)) return true;
      const url = new URL(u);
      return url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
    }, 'PUBLIC_URL must be an origin only (scheme, host and port), without a path, query or credentials')
    .transform((u) => (URL.canParse(u) ? new URL(u).origin : u))
    .optional(),
  /** PhonePe's OAuth client credentials (Business dashboard → Developer settings → API keys). */
  PHONEPE_CLIENT_ID: z.string().min(1).optional(),
  PHONEPE_CLIENT_SECRET: z.string().min(1).optional(),
  PHONEPE_CLIENT_VERSION: z.string().min(1).optional(),
  /** The username and password configured with the webhook; PhonePe sends SHA-256(user:password). */
  PHONEPE_WEBHOOK_USER: z.string().min(1).optional(),
  PHONEPE_WEBHOOK_PASSWORD: z.string().min(1).optional(),
  /** PhonePe's UAT (`sandbox`, api-preprod.phonepe.com) or live hosts; `production` when NODE_ENV is. */
  PHONEPE_ENV: z.enum(['sandbox', 'production']).optional(),
  /**
   * Who pays campaigns' withdrawals out (docs/configuration.md "Payouts"; docs/charity.md
   * "Withdrawals"): `razorpayx` is RazorpayX Payouts, `sandbox` the local RazorpayX that runs
   * inside this server (modules/payouts/sandbox-razorpayx.ts). Defaults to `sandbox` outside
   * production; unset in production, payouts are off (accounts cannot be verified, approved
   * withdrawals wait), and `sandbox` there is refused unless ALLOW_SANDBOX_PAYOUTS_IN_PRODUCTION.
   */
  PAYOUT_PROVIDER: z.enum(PAYOUT_PROVIDERS).optional(),
  /** A production installation may pay through the sandbox only when this says it is a trial (no money moves). */
  ALLOW_SANDBOX_PAYOUTS_IN_PRODUCTION: z.stringbool().default(false),
  /** RazorpayX API keys (basic auth), the account number payouts are made from, and the payout webhook's secret. */
  RAZORPAYX_KEY_ID: z.string().min(1).optional(),
  RAZORPAYX_KEY_SECRET: z.string().min(1).optional(),
  RAZORPAYX_ACCOUNT_NUMBER: z.string().regex(/^[0-9A-Za-z]{6,40}$/, { error: 'RAZORPAYX_ACCOUNT_NUMBER must be the RazorpayX account number (letters and digits)' }).optional(),
  RAZORPAYX_WEBHOOK_SECRET: z.string().min(1).optional(),
  /**
   * Holidays of the trust's office, a comma list of `YYYY-MM-DD` (India time): they do not count
   * towards a withdrawal's 48 working hours (docs/charity.md "Withdrawals", lib/working-time.ts).
   */
  WORKING_HOLIDAYS: z
    .string()
    .regex(/^\s*(\d{4}-\d{2}-\d{2}\s*(,\s*\d{4}-\d{2}-\d{2}\s*)*)?$/, { error: 'WORKING_HOLIDAYS must be a comma list of dates such as 2026-08-15,2026-10-02' })
    .default(''),
  /** Razorpay API keys (Dashboard → Account & Settings → API keys) and the webhook's secret. */
  RAZORPAY_KEY_ID: z.string().min(1).optional(),
  RAZORPAY_KEY_SECRET: z.string().min(1).optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().min(1).optional(),
  /**
   * Machine translation (docs/configuration.md "Machine translation", ARCHITECTURE decision 9): an OpenAI-compatible
   * chat-completions endpoint, its base (`https://api.openai.com/v1`) or the full
   * `…/chat/completions` address. Unset outside production: the local demo translator
   * (modules/translate/local-translator.ts); unset in production: Generate is off.
   */
  TRANSLATE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** The model named in each request; required with TRANSLATE_URL. */
  TRANSLATE_MODEL: z.string().min(1).max(200).optional(),
  /** Sent as `Authorization: Bearer …` when set (a self-hosted server may need none). */
  TRANSLATE_API_KEY: z.string().min(1).optional(),
  /** How long one batch may take before the translation is given up (ms). */
  TRANSLATE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  /**
   * Web Push (docs/configuration.md "Push messages (Web Push)", RFC 8292): the server's VAPID key pair, base64url (the public key an
   * uncompressed P-256 point, the private key 32 bytes; `npx web-push generate-vapid-keys` prints
   * a pair). Both or neither: without them a pair is generated on first start and kept in
   * DATA_DIR/vapid-keys.json (mode 600). Set them when several instances send, or to keep the
   * devices' subscriptions across a new DATA_DIR (a new key makes every device subscribe again).
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^B[A-Za-z0-9_-]{86}$/, { error: 'VAPID_PUBLIC_KEY must be an uncompressed P-256 public key in base64url (87 characters)' })
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, { error: 'VAPID_PRIVATE_KEY must be a 32-byte P-256 private key in base64url (43 characters)' })
    .optional(),
  /**
   * The answer-file key (docs/answer-file.md): the server's P-256 private key as a JWK (JSON, with `d`),
   * which devices encrypt last-resort answer files to. Without it a key is generated on first
   * start and kept in DATA_DIR/answer-file-key.json (mode 600). Set it when several instances
   * take uploads, or to keep reading files made for the key of an earlier DATA_DIR.
   */
  ANSWER_FILE_PRIVATE_JWK: z.string().min(1).max(1000).optional(),
  /**
   * The key that signs tests handed from phone to phone (docs/live-tests.md "Key handling"): a
   * P-256 private key as a JWK (JSON, with `d`). Without it a key is generated on first start and
   * kept in DATA_DIR/bundle-signing-key.json (mode 600). Set it when several instances make
   * bundles (each must sign with the same key).
   */
  BUNDLE_SIGNING_PRIVATE_JWK: z.string().min(1).max(1000).optional(),
  /**
   * Public keys of earlier bundle-signing keys, as a JSON array of JWKs, that devices still accept
   * (docs/live-tests.md "Key handling": keep one for a week, BUNDLE_TTL_MS, after a rotation).
   */
  BUNDLE_PREVIOUS_PUBLIC_JWKS: z.string().min(2).max(4000).optional(),
  /**
   * The version of the site's terms of use and privacy policy (docs/configuration.md "Terms and
   * the trust's account"). Bump it when the terms change: every person is asked to accept the new
   * version at their next login or app start, and what they accepted is kept with them.
   */
  TERMS_VERSION: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,40}$/, { error: 'TERMS_VERSION must be 1 to 40 letters, digits, dots, dashes or underscores' })
    .default(DEFAULT_TERMS_VERSION),
  /**
   * The trust's own account, by person id or 10-digit mobile: a person who signs up choosing "No
   * one invited me" is placed under it (docs/configuration.md). Outside production the demo data's
   * trust account (fixtures/accounts.json) by default; unset in production, that choice is refused.
   */
  TRUST_ACCOUNT: z.string().trim().min(1).max(64).optional(),
  /**
   * The number learners send answer codes to by SMS (docs/sms.md "Answers by SMS"), in E.164
   * (`+91…`): the provider's inbound number of this installation. Unset, devices are not offered
   * "Send my answers by SMS". Outside production the local sandbox's number by default.
   */
  SMS_ANSWER_NUMBER: z
    .string()
    .regex(/^\+[1-9][0-9]{6,14}$/, { error: 'SMS_ANSWER_NUMBER must be a number in E.164 form, e.g. +919876543210' })
    .optional(),
  /**
   * Who carries text messages (docs/sms.md "Providers and configuration"): `msg91` (its Flow API,
   * one DLT template per message kind and language), `twilio` (its Messages API) or `sandbox`,
   * the local SMS provider inside this server (modules/sms/sandbox-sms.ts). Defaults to
   * `sandbox` outside production; unset in production, every SMS goes to the log only (as before
   * there was a provider), and `sandbox` there is refused unless ALLOW_SANDBOX_SMS_IN_PRODUCTION.
   */
  SMS_PROVIDER: z.enum(SMS_PROVIDERS).optional(),
  /** A production installation may "send" SMS through the sandbox only when this says it is a trial (no phone gets anything). */
  ALLOW_SANDBOX_SMS_IN_PRODUCTION: z.stringbool().default(false),
  /** Which provider's protocol the sandbox speaks (its requests, callbacks and signatures). */
  SMS_SANDBOX_PROTOCOL: z.enum(['msg91', 'twilio']).default('twilio'),
  /** The DLT header (sender id) messages go out under: 6 letters for Indian operators (MSG91), or Twilio's From number / Messaging Service SID. */
  SMS_SENDER_ID: z.string().trim().min(1).max(40).optional(),
  /** The installation's DLT Principal Entity id (the trust's registration with the operators' DLT platform). */
  SMS_DLT_ENTITY_ID: z.string().regex(/^\d{10,25}$/, { error: 'SMS_DLT_ENTITY_ID must be the DLT Principal Entity id (digits)' }).optional(),
  /**
   * The provider's template id of every message kind in each language, a comma list of
   * `kind.lang=id` (`reset_code.en=1207…,reset_code.hi=1207…`): for MSG91 the Flow template ids
   * (each mapped to its DLT template in MSG91's panel). Required with SMS_PROVIDER=msg91.
   */
  SMS_TEMPLATE_IDS: z
    .string()
    .regex(/^\s*([a-z_]+\.(en|hi)=[A-Za-z0-9_-]+\s*(,\s*[a-z_]+\.(en|hi)=[A-Za-z0-9_-]+\s*)*)?$/, {
      error: 'SMS_TEMPLATE_IDS must be a comma list of kind.lang=id, such as reset_code.en=1207161234567890123',
    })
    .default(''),
  /** A message not reported delivered within this many seconds is sent again by e-mail to a person who has one (docs/sms.md). */
  SMS_FALLBACK_AFTER_S: z.coerce.number().int().min(10).max(540).default(120),
  /** The price of one SMS part in paise, for the cost figures of docs/sms.md and the sandbox page (an example; set your contract's). */
  SMS_PART_PRICE_PAISE: z.coerce.number().min(0).max(1000).default(25),
  /** MSG91's auth key (panel → API) and the secret token its webhooks' URLs carry (`?token=…`): MSG91 does not sign them. */
  MSG91_AUTH_KEY: z.string().min(1).optional(),
  MSG91_WEBHOOK_TOKEN: z.string().min(16, { error: 'MSG91_WEBHOOK_TOKEN must be at least 16 characters' }).optional(),
  /** Twilio's Account SID and Auth Token (the token also signs Twilio's callbacks, X-Twilio-Signature). */
  TWILIO_ACCOUNT_SID: z.string().regex(/^AC[0-9a-fA-F]{32}$/, { error: 'TWILIO_ACCOUNT_SID must be AC followed by 32 hex digits' }).optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  /**
   * Signup asks for the code sent to the new mobile before `mv` (mobile verified) is set
   * (docs/sms.md "Every code by SMS"); off by default, as before: `mv` was set by an OTP sign-in only.
   */
  SIGNUP_VERIFY_MOBILE: z.stringbool().default(false),
  /** Who push services can contact about our messages: a mailto: or https: URL; default mailto: the MAIL_FROM address. */
  VAPID_SUBJECT: z.url({ protocol: /^(mailto|https)$/, error: 'VAPID_SUBJECT must be a mailto: or https: URL' }).optional(),
});

/**
 * The listening address as an origin, PUBLIC_URL's default outside production: an address that
 * stands for every interface (0.0.0.0, ::) is reached as localhost; an IPv6 literal in brackets.
 */
function listeningOrigin(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' || host === '[::]' ? 'localhost' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return new URL(`http://${name}:${port}`).origin;
}

const PHONEPE_KEYS = ['PHONEPE_CLIENT_ID', 'PHONEPE_CLIENT_SECRET', 'PHONEPE_CLIENT_VERSION', 'PHONEPE_WEBHOOK_USER', 'PHONEPE_WEBHOOK_PASSWORD'] as const;
const RAZORPAY_KEYS = ['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET'] as const;
const RAZORPAYX_KEYS = ['RAZORPAYX_KEY_ID', 'RAZORPAYX_KEY_SECRET', 'RAZORPAYX_ACCOUNT_NUMBER', 'RAZORPAYX_WEBHOOK_SECRET'] as const;
const SMS_KEYS = { msg91: ['MSG91_AUTH_KEY', 'MSG91_WEBHOOK_TOKEN', 'SMS_SENDER_ID', 'SMS_DLT_ENTITY_ID'], twilio: ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'SMS_SENDER_ID'] } as const;

/**
 * The payment settings resolved: PAYMENT_PROVIDER is required in production (like a demo
 * password there, a missing choice refuses the start rather than guessing), and the provider it
 * names must have all its keys.
 */
const resolvedEnvSchema = envSchema.transform((e, ctx) => {
  const production = e.NODE_ENV === 'production';
  if (!e.PAYMENT_PROVIDER && production) {
    ctx.addIssue({ code: 'custom', path: ['PAYMENT_PROVIDER'], message: 'PAYMENT_PROVIDER is required when NODE_ENV=production (sandbox, phonepe or razorpay)' });
  }
  const provider = e.PAYMENT_PROVIDER ?? 'sandbox';
  if (production && provider === 'sandbox' && !e.ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION) {
    ctx.addIssue({
      code: 'custom',
      path: ['PAYMENT_PROVIDER'],
      message:
        'PAYMENT_PROVIDER=sandbox takes no money, and its Pay button would grant paid plans: refused with NODE_ENV=production ' +
        'unless ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION=true says this is a trial installation',
    });
  }
  if (production && !e.PUBLIC_URL) {
    ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: "PUBLIC_URL is required when NODE_ENV=production (the site's origin, e.g. https://parikshamitra.example)" });
  }
  const payouts = e.PAYOUT_PROVIDER ?? (production ? undefined : 'sandbox');
  if (production && payouts === 'sandbox' && !e.ALLOW_SANDBOX_PAYOUTS_IN_PRODUCTION) {
    ctx.addIssue({
      code: 'custom',
      path: ['PAYOUT_PROVIDER'],
      message: 'PAYOUT_PROVIDER=sandbox pays nobody: refused with NODE_ENV=production unless ALLOW_SANDBOX_PAYOUTS_IN_PRODUCTION=true says this is a trial installation',
    });
  }
  if (payouts === 'razorpayx') {
    for (const key of RAZORPAYX_KEYS) {
      if (!e[key]) ctx.addIssue({ code: 'custom', path: [key], message: `${key} is required when PAYOUT_PROVIDER=razorpayx` });
    }
  }
  const needed = provider === 'phonepe' ? PHONEPE_KEYS : provider === 'razorpay' ? RAZORPAY_KEYS : [];
  for (const key of needed) {
    if (!e[key]) ctx.addIssue({ code: 'custom', path: [key], message: `${key} is required when PAYMENT_PROVIDER=${provider}` });
  }
  const sms = e.SMS_PROVIDER ?? (production ? undefined : 'sandbox');
  if (production && sms === 'sandbox' && !e.ALLOW_SANDBOX_SMS_IN_PRODUCTION) {
    ctx.addIssue({
      code: 'custom',
      path: ['SMS_PROVIDER'],
      message: 'SMS_PROVIDER=sandbox sends nothing to any phone: refused with NODE_ENV=production unless ALLOW_SANDBOX_SMS_IN_PRODUCTION=true says this is a trial installation',
    });
  }
  if (sms === 'msg91' || sms === 'twilio') {
    for (const key of SMS_KEYS[sms]) {
      if (!e[key]) ctx.addIssue({ code: 'custom', path: [key], message: `${key} is required when SMS_PROVIDER=${sms}` });
    }
  }
  if (!e.VAPID_PUBLIC_KEY !== !e.VAPID_PRIVATE_KEY) {
    ctx.addIssue({ code: 'custom', path: [e.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'], message: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together' });
  }
  if (e.TRANSLATE_URL && !e.TRANSLATE_MODEL) {
    ctx.addIssue({ code: 'custom', path: ['TRANSLATE_MODEL'], message: 'TRANSLATE_MODEL is required when TRANSLATE_URL is set' });
  }
  return {
    ...e,
    PAYMENT_PROVIDER: provider,
    PAYOUT_PROVIDER: payouts,
    SMS_PROVIDER: sms,
    PHONEPE_ENV: e.PHONEPE_ENV ?? (production ? 'production' : 'sandbox'),
    PUBLIC_URL: e.PUBLIC_URL ?? listeningOrigin(e.HOST, e.PORT),
    TRUST_ACCOUNT: e.TRUST_ACCOUNT ?? (production ? undefined : DEMO_TRUST_ACCOUNT),
    SMS_ANSWER_NUMBER: e.SMS_ANSWER_NUMBER ?? (production ? undefined : SANDBOX_SMS_NUMBER),
  };
});
export type Env = z.output<typeof resolvedEnvSchema>;

export type Config = Omit<Env, 'JWT_SECRET' | 'DATA_DIR'> & {
  dataDir: string;
  jwtSecret: Uint8Array;
};

/** An environment the server refuses to start with; `problems` names each variable and what is wrong. */
export class EnvError extends Error {
  constructor(readonly problems: { variable: string; problem: string }[]) {
    super(`Invalid environment: ${problems.map((p) => `${p.variable}: ${p.problem}`).join('; ')}`);
    this.name = 'EnvError';
  }
}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const r = resolvedEnvSchema.safeParse(source);
  if (!r.success) throw new EnvError(r.error.issues.map((i) => ({ variable: i.path.join('.'), problem: i.message })));
  return r.data;
}

/**
 * Resolves the data directory and the JWT secret. Without JWT_SECRET a 256-bit secret is drawn
 * from the CSPRNG once and kept in DATA_DIR/jwt-secret (mode 600), so tokens survive restarts;
 * that is as strong in production as a secret set by hand (it never leaves DATA_DIR, which holds
 * the database it protects anyway). A DATA_DIR created here is 700 (docs/security.md "Production, load shedding, logs, files": only the server's
 * user reads the database); an existing one keeps its mode (it may be a mounted volume), while
 * the files in it are made 600 by openDatabase (db/client.ts).
 */
export function loadConfig(env: Env = parseEnv()): Config {
  const dataDir = path.resolve(env.DATA_DIR);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let secret: string;
  if (env.JWT_SECRET) {
    secret = env.JWT_SECRET;
  } else {
    const file = path.join(dataDir, 'jwt-secret');
    if (!existsSync(file)) {
      writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    }
    secret = readFileSync(file, 'utf8').trim();
  }
  const { JWT_SECRET: _s, DATA_DIR: _d, ...rest } = env;
  return { ...rest, dataDir, jwtSecret: new TextEncoder().encode(secret) };
}

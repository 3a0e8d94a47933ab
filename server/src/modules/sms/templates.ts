import { SECRET_MASK } from '../../lib/outbox';

/*
 * Every text message the server sends, as registered with the operators' DLT platform (docs/sms.md
 * "DLT templates"): Indian operators drop a transactional SMS whose text does not match a
 * registered template, so these texts ARE the templates, each variable written `{name}` here and
 * `{#var#}` in the registration. One template per kind and language; a variable is cut to its
 * registered length (DLT allows up to 30 characters a variable), so that the longest message stays
 * within the parts docs/sms.md costs it at (templates.test.ts).
 */

/** The message kinds; each has a template in English and in Hindi. */
export const SMS_KINDS = ['reset_code', 'login_otp', 'account_created', 'mobile_verify', 'answers_received', 'answers_scored', 'answers_texts_follow', 'live_unlock'] as const;
export type SmsKind = (typeof SMS_KINDS)[number];
export type SmsLang = 'en' | 'hi';
export const SMS_LANGS: readonly SmsLang[] = ['en', 'hi'];

type Template = {
  /** The text per language, variables as `{name}`. */
  text: Record<SmsLang, string>;
  /** Each variable's longest value in characters (what the DLT registration allows for it). */
  vars: Record<string, number>;
  /** The variable that carries the secret (the code, the password): SECRET_MASK in what is stored. */
  secret?: string;
  /** The e-mail subject when the message goes (or falls back) by e-mail. */
  subject: string;
};

export const SMS_TEMPLATES: Record<SmsKind, Template> = {
  reset_code: {
    text: {
      en: 'Your Pariksha Mitra password reset code is {code}. It is valid for 10 minutes. If you did not ask for it, ignore this message.',
      hi: 'परीक्षा मित्र पासवर्ड रीसेट कोड {code} है। यह 10 मिनट तक मान्य है। आपने नहीं माँगा तो इसे अनदेखा करें।',
    },
    vars: { code: 6 },
    secret: 'code',
    subject: 'Password reset code',
  },
  login_otp: {
    text: {
      en: '{code} is your Pariksha Mitra login OTP. It is valid for 10 minutes. Do not share it.',
      hi: '{code} आपका परीक्षा मित्र लॉगिन OTP है। यह 10 मिनट तक मान्य है। इसे किसी को न बताएँ।',
    },
    vars: { code: 6 },
    secret: 'code',
    subject: 'Login OTP',
  },
  account_created: {
    text: {
      en: 'Welcome to Pariksha Mitra, {name}. {actor} has registered you. Log in with {mobile} and the password {password}, then change it.',
      hi: 'परीक्षा मित्र: {actor} ने आपका खाता बनाया। लॉगिन {mobile}, पासवर्ड {password}। फिर पासवर्ड बदलें।',
    },
    vars: { name: 30, actor: 30, mobile: 10, password: 10 },
    secret: 'password',
    subject: 'Your Pariksha Mitra account',
  },
  mobile_verify: {
    text: {
      en: '{code} is your Pariksha Mitra code to verify this mobile number. It is valid for 10 minutes.',
      hi: '{code} इस मोबाइल नंबर की पुष्टि के लिए आपका परीक्षा मित्र कोड है। यह 10 मिनट तक मान्य है।',
    },
    vars: { code: 6 },
    secret: 'code',
    subject: 'Verify your mobile number',
  },
  // The replies to an answer code the server took (docs/sms.md "Answers by SMS"); the receipt as
  // a person reads it (sync-protocol receipt.ts shortReceipt).
  answers_received: {
    text: {
      en: 'Pariksha Mitra: answers received. Receipt {receipt}.',
      hi: 'परीक्षा मित्र: उत्तर मिले। रसीद {receipt}।',
    },
    vars: { receipt: 19 },
    subject: 'Answers received',
  },
  answers_scored: {
    text: {
      en: 'Pariksha Mitra: answers received. Receipt {receipt}. Score {score}.',
      hi: 'परीक्षा मित्र: उत्तर मिले। रसीद {receipt}। अंक {score}।',
    },
    vars: { receipt: 19, score: 15 },
    subject: 'Answers received',
  },
  answers_texts_follow: {
    text: {
      en: 'Pariksha Mitra: choices received. Written answers will come when your phone has data.',
      hi: 'परीक्षा मित्र: विकल्प मिले। लिखित उत्तर डेटा आने पर पहुँचेंगे।',
    },
    vars: {},
    subject: 'Answers received',
  },
  // A live test's unlock code at its start (docs/live-tests.md "Unlock codes"), to a learner who
  // registered and asked for it: typed into the app to open the paper offline.
  live_unlock: {
    text: {
      en: 'Pariksha Mitra live test {title}: unlock code {code}. Type it in the app to start the test.',
      hi: 'परीक्षा मित्र लाइव टेस्ट {title}: अनलॉक कोड {code}। टेस्ट शुरू करने के लिए इसे ऐप में लिखें।',
    },
    vars: { title: 30, code: 14 },
    secret: 'code',
    subject: 'Live test unlock code',
  },
};

/** A variable's value as the template takes it: one line, cut to its registered length. */
function fitVariable(value: string, max: number): string {
  return [...value.replace(/\s+/g, ' ').trim()].slice(0, max).join('');
}

/** The template's text with its variables filled (only the ones it names; the rest are ignored). */
export function renderTemplate(kind: SmsKind, lang: SmsLang, vars: Record<string, string>): string {
  const t = SMS_TEMPLATES[kind];
  return t.text[lang].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const max = t.vars[name];
    if (max === undefined) return whole;
    // The secret's placeholder is kept whole: the outbox replaces it when it delivers.
    const value = vars[name] ?? '';
    return value === SECRET_MASK ? value : fitVariable(value, max);
  });
}

// --- Encoding and parts (3GPP TS 23.038) --------------------------------------------------------

/** The GSM 03.38 default alphabet: one septet each. */
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** Its extension table: two septets each (an escape, then the character). */
const GSM7_EXTENSION = '^{}\\[~]|€\f';
const BASIC = new Set(GSM7_BASIC);
const EXTENSION = new Set(GSM7_EXTENSION);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

/** Whether every character of `text` is in the GSM-7 alphabet (else the message goes as UCS-2). */
export function isGsm7(text: string): boolean {
  for (const ch of text) if (!BASIC.has(ch) && !EXTENSION.has(ch)) return false;
  return true;
}

/**
 * How a text goes: GSM-7 (160 septets in one part, 153 a part when split) when every character
 * is in that alphabet, else UCS-2 (70 UTF-16 units in one part, 67 a part when split): Hindi is
 * always UCS-2.
 */
export function smsParts(text: string): { encoding: SmsEncoding; units: number; parts: number } {
  if (isGsm7(text)) {
    let units = 0;
    for (const ch of text) units += EXTENSION.has(ch) ? 2 : 1;
    return { encoding: 'GSM-7', units, parts: units <= 160 ? 1 : Math.ceil(units / 153) };
  }
  const units = text.length;
  return { encoding: 'UCS-2', units, parts: units <= 70 ? 1 : Math.ceil(units / 67) };
}

/** The template's text with every variable at its longest (for the length tests and the docs' costs). */
export function longestRendering(kind: SmsKind, lang: SmsLang): string {
  const vars = Object.fromEntries(Object.entries(SMS_TEMPLATES[kind].vars).map(([name, max]) => [name, 'W'.repeat(max)]));
  return renderTemplate(kind, lang, vars);
}

import { describe, expect, test } from 'vitest';
import { SECRET_MASK } from '../../lib/outbox';
import { isGsm7, longestRendering, renderTemplate, SMS_KINDS, SMS_LANGS, SMS_TEMPLATES, smsParts } from './templates';

describe('the DLT templates (docs/sms.md "DLT templates")', () => {
  test.each(SMS_KINDS)('%s: Hindi with its longest variables is Unicode in at most 2 parts (67 characters each)', (kind) => {
    const text = longestRendering(kind, 'hi');
    const parts = smsParts(text);
    expect(parts.encoding).toBe('UCS-2');
    expect(parts.units).toBeLessThanOrEqual(2 * 67);
    expect(parts.parts).toBeLessThanOrEqual(2);
  });

  test.each(SMS_KINDS)('%s: English with its longest variables is GSM-7 in at most 2 parts (153 septets each)', (kind) => {
    const text = longestRendering(kind, 'en');
    expect(isGsm7(text)).toBe(true);
    const parts = smsParts(text);
    expect(parts.encoding).toBe('GSM-7');
    expect(parts.units).toBeLessThanOrEqual(2 * 153);
  });

  test('the codes fit one part in English', () => {
    for (const kind of ['reset_code', 'login_otp', 'mobile_verify'] as const) expect(smsParts(longestRendering(kind, 'en')).parts).toBe(1);
  });

  test('every template names only its registered variables, and its secret is one of them', () => {
    for (const kind of SMS_KINDS) {
      const t = SMS_TEMPLATES[kind];
      for (const lang of SMS_LANGS) {
        const names = [...t.text[lang].matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
        for (const name of names) expect(Object.keys(t.vars)).toContain(name);
        if (t.secret) expect(names).toContain(t.secret);
      }
    }
  });

  test('a variable is cut to its registered length, made one line, and the masked secret is kept whole', () => {
    const text = renderTemplate('account_created', 'en', { name: `A  very\nlong name ${'x'.repeat(40)}`, actor: 'Lata', mobile: '9000000001', password: SECRET_MASK });
    expect(text).toContain(`Welcome to Pariksha Mitra, A very long name ${'x'.repeat(13)}. Lata has registered`);
    expect(text).toContain(`the password ${SECRET_MASK}, then change it.`);
  });

  test('the English texts are the ones the outbox kept before templates (old rows are masked by their words)', () => {
    expect(renderTemplate('login_otp', 'en', { code: '123456' })).toBe('123456 is your Pariksha Mitra login OTP. It is valid for 10 minutes. Do not share it.');
    expect(renderTemplate('reset_code', 'en', { code: '123456' })).toBe(
      'Your Pariksha Mitra password reset code is 123456. It is valid for 10 minutes. If you did not ask for it, ignore this message.',
    );
  });
});

describe('parts and encodings (3GPP TS 23.038)', () => {
  test('GSM-7: 160 in one part, then 153 a part; the extension table counts twice', () => {
    expect(smsParts('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, parts: 1 });
    expect(smsParts('a'.repeat(161))).toEqual({ encoding: 'GSM-7', units: 161, parts: 2 });
    expect(smsParts('a'.repeat(306)).parts).toBe(2);
    expect(smsParts('a'.repeat(307)).parts).toBe(3);
    expect(smsParts('€'.repeat(80))).toEqual({ encoding: 'GSM-7', units: 160, parts: 1 });
  });

  test('UCS-2: 70 in one part, then 67 a part; one Devanagari letter or an emoji makes the whole text UCS-2', () => {
    expect(smsParts('क'.repeat(70))).toEqual({ encoding: 'UCS-2', units: 70, parts: 1 });
    expect(smsParts('क'.repeat(71)).parts).toBe(2);
    expect(smsParts('क'.repeat(134)).parts).toBe(2);
    expect(smsParts('क'.repeat(135)).parts).toBe(3);
    expect(smsParts(`${'a'.repeat(69)}क`).encoding).toBe('UCS-2');
    expect(smsParts('😀').units).toBe(2);
  });
});

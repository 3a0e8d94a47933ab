import { createECDH, createPrivateKey, sign } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import webpush from 'web-push';
import { decryptAes128gcm, deriveMessageKeys, parseHeader, verifyVapid, WebPushDecryptError } from './web-push-crypto';

/*
 * RFC 8291 §5 and Appendix A: the worked example, every value as the RFC prints it (base64url).
 * The local push endpoint reads messages with decryptAes128gcm; if it agrees with the RFC on the
 * keys, the intermediate values and the plaintext, it reads what any conforming sender writes.
 */
const RFC8291 = {
  plaintext: 'When I grow up, I want to be a watermelon',
  asPublic: 'BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8',
  asPrivate: 'yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw',
  uaPublic: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
  uaPrivate: 'q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94',
  salt: 'DGv6ra1nlYgDCS1FRnbzlw',
  authSecret: 'BTBZMqHH6r4Tts7J_aSIgg',
  ecdhSecret: 'kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs',
  ikm: 'S4lYMb_L0FxCeq0WhDx813KgSYqU26kOyzWUdsXYyrg',
  cek: 'oIhVW04MRdy2XN9CiKLxTg',
  nonce: '4h_95klXJ5E_qnoN',
  header: 'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8',
  ciphertext: '8pfeW0KbunFT06SuDKoJH9Ql87S1QUrdirN6GcG7sFz1y1sqLgVi1VhjVkHsUoEsbI_0LpXMuGvnzQ',
  // §5's message body (the base64url of header || ciphertext; 144 bytes).
  body:
    'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
};
const b = (s: string) => Buffer.from(s, 'base64url');
const ua = { privateKey: b(RFC8291.uaPrivate), publicKey: b(RFC8291.uaPublic), authSecret: b(RFC8291.authSecret) };

describe('RFC 8291 Appendix A', () => {
  test('the body is the header and the ciphertext of Appendix A', () => {
    const body = b(RFC8291.body);
    expect(body.length).toBe(144);
    expect(body.subarray(0, 86).toString('base64url')).toBe(RFC8291.header);
    expect(body.subarray(86).toString('base64url')).toBe(RFC8291.ciphertext);
    const { salt, rs, keyid } = parseHeader(body);
    expect(salt.toString('base64url')).toBe(RFC8291.salt);
    expect(rs).toBe(4096);
    expect(keyid.toString('base64url')).toBe(RFC8291.asPublic);
  });

  test('the key pairs are the RFC’s, and ECDH gives its shared secret from either side', () => {
    const receiver = createECDH('prime256v1');
    receiver.setPrivateKey(b(RFC8291.uaPrivate));
    expect(receiver.getPublicKey().toString('base64url')).toBe(RFC8291.uaPublic);
    expect(receiver.computeSecret(b(RFC8291.asPublic)).toString('base64url')).toBe(RFC8291.ecdhSecret);
    const sender = createECDH('prime256v1');
    sender.setPrivateKey(b(RFC8291.asPrivate));
    expect(sender.getPublicKey().toString('base64url')).toBe(RFC8291.asPublic);
    expect(sender.computeSecret(b(RFC8291.uaPublic)).toString('base64url')).toBe(RFC8291.ecdhSecret);
  });

  test('IKM, CEK and NONCE are the intermediate values of Appendix A', () => {
    const keys = deriveMessageKeys({
      ecdhSecret: b(RFC8291.ecdhSecret),
      authSecret: b(RFC8291.authSecret),
      uaPublic: b(RFC8291.uaPublic),
      asPublic: b(RFC8291.asPublic),
      salt: b(RFC8291.salt),
    });
    expect(keys.ikm.toString('base64url')).toBe(RFC8291.ikm);
    expect(keys.cek.toString('base64url')).toBe(RFC8291.cek);
    expect(keys.nonce.toString('base64url')).toBe(RFC8291.nonce);
  });

  test('the body decrypts to the plaintext of §5', () => {
    expect(decryptAes128gcm(b(RFC8291.body), ua).toString('utf8')).toBe(RFC8291.plaintext);
  });

  test('a changed byte, another auth secret or another private key is refused', () => {
    const body = b(RFC8291.body);
    const flipped = Buffer.from(body);
    flipped[100]! ^= 1;
    expect(() => decryptAes128gcm(flipped, ua)).toThrow(WebPushDecryptError);
    expect(() => decryptAes128gcm(body, { ...ua, authSecret: Buffer.alloc(16, 7) })).toThrow(WebPushDecryptError);
    const other = createECDH('prime256v1');
    other.generateKeys();
    expect(() => decryptAes128gcm(body, { ...ua, privateKey: other.getPrivateKey() })).toThrow(WebPushDecryptError);
    expect(() => decryptAes128gcm(body.subarray(0, 90), ua)).toThrow(WebPushDecryptError);
  });
});

describe('web-push’s encryption, read back', () => {
  test('a message web-push encrypts to a fresh subscription decrypts to the same bytes', () => {
    const device = createECDH('prime256v1');
    device.generateKeys();
    const auth = Buffer.alloc(16, 9);
    const payload = JSON.stringify({ title: 'परिणाम तैयार है', body: 'x'.repeat(2000) });
    const { cipherText } = webpush.encrypt(device.getPublicKey().toString('base64url'), auth.toString('base64url'), payload, 'aes128gcm');
    expect(decryptAes128gcm(cipherText, { privateKey: device.getPrivateKey(), publicKey: device.getPublicKey(), authSecret: auth }).toString('utf8')).toBe(payload);
  });
});

describe('VAPID (RFC 8292)', () => {
  const keys = webpush.generateVAPIDKeys();
  const origin = 'http://127.0.0.1:4567';
  const headerFor = (audience: string, expiration?: number) =>
    webpush.getVapidHeaders(audience, 'mailto:test@example.org', keys.publicKey, keys.privateKey, 'aes128gcm', expiration).Authorization;

  test('web-push’s header verifies: the signature against k, aud the origin, exp ahead', () => {
    const r = verifyVapid(headerFor(origin), origin, { expectedKey: keys.publicKey });
    expect(r).toMatchObject({ ok: true, key: keys.publicKey, claims: { aud: origin, sub: 'mailto:test@example.org' } });
  });

  test('another audience, an expired token, a forged signature or another key is refused', () => {
    expect(verifyVapid(headerFor('http://127.0.0.1:9999'), origin)).toMatchObject({ ok: false, reason: `aud must be ${origin}` });
    const past = Math.floor(Date.now() / 1000) + 60;
    expect(verifyVapid(headerFor(origin, past), origin, { now: (past + 1) * 1000 })).toMatchObject({ ok: false, reason: 'expired' });
    expect(verifyVapid(headerFor(origin), origin, { expectedKey: webpush.generateVAPIDKeys().publicKey })).toMatchObject({ ok: false });
    expect(verifyVapid(undefined, origin)).toMatchObject({ ok: false });
    expect(verifyVapid('Bearer x', origin)).toMatchObject({ ok: false });

    // A token signed by one key and presented with another key.
    const other = webpush.generateVAPIDKeys();
    const swapped = headerFor(origin).replace(/k=[A-Za-z0-9_-]+/, `k=${other.publicKey}`);
    expect(verifyVapid(swapped, origin)).toMatchObject({ ok: false, reason: 'bad signature' });

    // A well-formed token with exp two days ahead, signed by the right key.
    const jwk = { kty: 'EC', crv: 'P-256', d: keys.privateKey, x: b(keys.publicKey).subarray(1, 33).toString('base64url'), y: b(keys.publicKey).subarray(33).toString('base64url') };
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const unsigned = `${enc({ typ: 'JWT', alg: 'ES256' })}.${enc({ aud: origin, exp: Math.floor(Date.now() / 1000) + 2 * 86400, sub: 'mailto:a@b.c' })}`;
    const sig = sign('sha256', Buffer.from(unsigned), { key: createPrivateKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }).toString('base64url');
    expect(verifyVapid(`vapid t=${unsigned}.${sig}, k=${keys.publicKey}`, origin)).toMatchObject({ ok: false, reason: 'exp more than 24 hours ahead' });
  });
});

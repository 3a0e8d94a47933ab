import { describe, expect, test } from 'vitest';
import { createMsg91Adapter, msg91State, parseTemplateIds } from './msg91';
import { createTwilioAdapter, twilioSignature, twilioState } from './twilio';

/*
 * The providers' callbacks are checked as the providers sign them (docs/sms.md "Providers and
 * configuration"): Twilio's signature against the example of its own request-validation
 * documentation, MSG91's secret token in the address.
 */

describe('Twilio X-Twilio-Signature', () => {
  // Twilio's documented example: auth token 12345, this address and these POST parameters.
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const params = { CallSid: 'CA1234567890ABCDE', Caller: '+14158675309', Digits: '1234', From: '+14158675309', To: '+18005551212' };

  test('matches the published signature', () => {
    expect(twilioSignature('12345', url, params)).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
    // The same example with the later docs' numbers.
    expect(twilioSignature('12345', url, { ...params, Caller: '+14158675310', From: '+14158675310' })).toBe('GvWf1cFY/Q7PnoempGyD5oXAezc=');
  });

  const accountSid = `AC${'0'.repeat(32)}`;
  const adapter = createTwilioAdapter({ accountSid, authToken: 'secret-token', from: 'PMITRA', publicUrl: 'https://pm.example' });
  const statusUrl = 'https://pm.example/api/sms/twilio/status';
  const form = (p: Record<string, string>) => new URLSearchParams(p).toString();
  const signed = (p: Record<string, string>, token = 'secret-token', at = statusUrl) => ({ url: at, headers: new Headers({ 'x-twilio-signature': twilioSignature(token, at, p) }), body: form(p) });
  const report = { AccountSid: accountSid, MessageSid: `SM${'a'.repeat(32)}`, MessageStatus: 'delivered' };

  test('a status callback signed with our token is read; any change to it, another token, another address or none is refused', () => {
    expect(adapter.deliveryReports(signed(report))).toEqual([{ providerMessageId: report.MessageSid, state: 'delivered' }]);
    const good = signed(report);
    expect(adapter.deliveryReports({ ...good, body: form({ ...report, MessageStatus: 'failed' }) })).toBeNull();
    expect(adapter.deliveryReports(signed(report, 'another-token'))).toBeNull();
    expect(adapter.deliveryReports({ ...good, url: 'https://evil.example/api/sms/twilio/status' })).toBeNull();
    expect(adapter.deliveryReports({ ...good, headers: new Headers() })).toBeNull();
  });

  test("a callback of another account, signed with that account's token, is refused", () => {
    expect(adapter.deliveryReports(signed({ ...report, AccountSid: `AC${'1'.repeat(32)}` }))).toBeNull();
  });

  test('an inbound message is read with E.164 numbers', () => {
    const p = { AccountSid: accountSid, MessageSid: `SM${'b'.repeat(32)}`, From: '+919000000003', To: '+919999900000', Body: 'PM1 abc' };
    expect(adapter.inbound(signed(p))).toMatchObject({ from: '+919000000003', to: '+919999900000', text: 'PM1 abc', provider: 'twilio', providerMessageId: p.MessageSid });
  });

  test('statuses', () => {
    expect(['queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed'].map(twilioState)).toEqual(['queued', 'sent', 'sent', 'delivered', 'failed', 'failed']);
  });
});

describe('MSG91', () => {
  const adapter = createMsg91Adapter({ authKey: 'k', webhookToken: 'a-long-secret-token', templateIds: parseTemplateIds('login_otp.en=t1') });
  const at = (token: string) => `https://pm.example/api/sms/msg91/report?token=${token}`;
  const body = JSON.stringify({ data: [{ requestId: 'r1', report: [{ number: '919000000003', status: '1', desc: 'DELIVERED' }] }] });

  test('a report whose address carries our token is read; another token, or none, is refused', () => {
    expect(adapter.deliveryReports({ url: at('a-long-secret-token'), headers: new Headers(), body })).toEqual([{ providerMessageId: 'r1', state: 'delivered' }]);
    expect(adapter.deliveryReports({ url: at('a-long-secret-tokem'), headers: new Headers(), body })).toBeNull();
    expect(adapter.deliveryReports({ url: 'https://pm.example/api/sms/msg91/report', headers: new Headers(), body })).toBeNull();
  });

  test('a report as a form field `data`, and the statuses', () => {
    const form = new URLSearchParams({ data: JSON.stringify([{ requestId: 'r2', report: [{ status: 2, desc: 'FAILED' }] }]) }).toString();
    expect(adapter.deliveryReports({ url: at('a-long-secret-token'), headers: new Headers(), body: form })).toEqual([{ providerMessageId: 'r2', state: 'failed', error: '2 FAILED' }]);
    expect(['1', '2', '8', '9', '16', '25'].map(msg91State)).toEqual(['delivered', 'failed', 'sent', 'failed', 'failed', 'failed']);
  });

  test('a message without a template, or of a template with no id, is not sent', async () => {
    await expect(adapter.send({ to: '+919000000003', text: 'hello' })).rejects.toThrow(/templates only/);
    await expect(adapter.send({ to: '+919000000003', text: 'x', template: { kind: 'reset_code', lang: 'en', vars: {} } })).rejects.toThrow(/SMS_TEMPLATE_IDS has no reset_code.en/);
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contactMessage } from '../../db/schema';
import { first } from '../../db/transaction';
import { type Harness, startHarness } from '../../test/harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.destroy());

const contacts = () => h.deps.db.select().from(contactMessage);
const CONTACT_OK = 'Your message has been posted to community. One of the member will contact you soon.';

describe('POST /generic/submit-contact-details', () => {
  test('stores the message with the +91 mobile and answers the community text (anonymous)', async () => {
    const r = await h.request('POST', '/generic/submit-contact-details', {
      body: { name: 'Kiran Rao', mobile: '9876543210', email: 'Kiran@Example.com', description: 'How do I buy a plan?' },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ success: true, msg: CONTACT_OK });
    expect(r.body.id).toEqual(expect.any(String));
    const row = await first(h.deps.db.select().from(contactMessage).where(eq(contactMessage.id, r.body.id)));
    expect(row).toMatchObject({ name: 'Kiran Rao', mobile: '+919876543210', email: 'kiran@example.com', description: 'How do I buy a plan?' });
  });

  test('e-mail is optional', async () => {
    for (const extra of [{}, { email: '' }, { email: null }]) {
      const r = await h.request('POST', '/generic/submit-contact-details', {
        body: { name: 'No Mail', mobile: '+91 98765 43211', description: 'Call me', ...extra },
      });
      expect(r.status).toBe(201);
      expect(r.body.msg).toBe(CONTACT_OK);
      const row = await first(h.deps.db.select().from(contactMessage).where(eq(contactMessage.id, r.body.id)));
      expect(row?.email).toBeNull();
      expect(row?.mobile).toBe('+919876543211');
    }
  });

  test('a signed-in person may post too', async () => {
    const learner = await h.tokenOf('learner');
    const r = await h.request('POST', '/generic/submit-contact-details', {
      token: learner,
      body: { name: 'Lata Learner', mobile: '9000000003', description: 'Question about results' },
    });
    expect(r.status).toBe(201);
  });

  test('missing name, mobile or description is 400 and nothing is stored', async () => {
    const before = (await contacts()).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ mobile: '9876543210', description: 'x' }, 'Name is required'],
      [{ name: '  ', mobile: '9876543210', description: 'x' }, 'Name is required'],
      [{ name: 'A Person', description: 'x' }, 'Mobile is required'],
      [{ name: 'A Person', mobile: '', description: 'x' }, 'Mobile is required'],
      [{ name: 'A Person', mobile: '98765', description: 'x' }, 'Please provide a valid 10 digit mobile number'],
      [{ name: 'A Person', mobile: '9876543210' }, 'Description is required'],
      [{ name: 'A Person', mobile: '9876543210', description: '   ' }, 'Description is required'],
      [{ name: 'A Person', mobile: '9876543210', description: 'x', email: 'not-an-email' }, 'Please provide a valid email'],
    ];
    for (const [body, msg] of cases) {
      const r = await h.request('POST', '/generic/submit-contact-details', { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toMatchObject({ success: false, msg });
    }
    expect((await contacts()).length).toBe(before);
  });

  test('a bad token is 401 (the route takes an optional login, not a broken one)', async () => {
    const before = (await contacts()).length;
    const r = await h.request('POST', '/generic/submit-contact-details', {
      token: 'broken',
      body: { name: 'A Person', mobile: '9876543210', description: 'x' },
    });
    expect(r.status).toBe(401);
    expect((await contacts()).length).toBe(before);
  });
});

// PATCH /generic/update-firebase-token (Web Push subscriptions): modules/push/push.test.ts.

import { z } from 'zod';
import { callProvider, type FetchLike, safeEqual } from '../payments/providers/common';
import type { DeliveryReport, DeliveryState, ProviderCallback, SmsAdapter, SmsRequest } from './adapter';
import { e164, formParams } from './adapter';
import type { SmsKind, SmsLang } from './templates';

/*
 * MSG91 (docs/sms.md "Providers and configuration"), after docs.msg91.com "Send SMS (Flow)" and
 * its webhooks:
 *
 * - POST {base}/api/v5/flow with the header `authkey` and JSON { template_id, short_url: '0',
 *   recipients: [{ mobiles: '919…', <variable>: <value>, … }] }: the text is the template
 *   registered in MSG91's panel (mapped there to its DLT template id and sender id), filled with
 *   the variables, which carry the names of templates.ts (`##code##` in MSG91's template editor).
 *   It answers { type: 'success', message: <request id> } or { type: 'error', message }.
 * - Delivery reports (the panel's SMS webhook) POST JSON { data: [{ requestId, report: [{ number,
 *   status, desc, date }] }] } (or the array alone, or a form field `data` holding it); status
 *   1 is delivered, 2 failed, 9 NDNC, 16, 17, 25, 26 rejected or blocked; others are on the way.
 * - Inbound messages (a long code or keyword's forwarding) POST { requestId, sender, inNumber,
 *   content } as JSON or a form.
 * - MSG91 does not sign these callbacks: the address given in the panel carries a secret, `?token=<MSG91_WEBHOOK_TOKEN>`,
 *   compared in constant time; a callback without it is refused.
 */

export const MSG91_BASE_URL = 'https://control.msg91.com';

export type Msg91Options = {
  baseUrl?: string;
  authKey: string;
  webhookToken: string;
  /** The Flow template id of each kind and language (SMS_TEMPLATE_IDS). */
  templateIds: ReadonlyMap<string, string>;
  fetch?: FetchLike;
};

/** The key of a template in SMS_TEMPLATE_IDS: `reset_code.hi`. */
export const templateKey = (kind: SmsKind, lang: SmsLang) => `${kind}.${lang}`;

/** SMS_TEMPLATE_IDS parsed: `kind.lang` → id. */
export function parseTemplateIds(setting: string): Map<string, string> {
  const ids = new Map<string, string>();
  for (const item of setting.split(',')) {
    const [key, id] = item.split('=').map((s) => s.trim());
    if (key && id) ids.set(key, id);
  }
  return ids;
}

/** MSG91's report status in our words. */
export function msg91State(status: string): DeliveryState {
  if (status === '1') return 'delivered';
  if (['2', '9', '16', '17', '25', '26'].includes(status)) return 'failed';
  return 'sent';
}

const flowAnswer = z.looseObject({ type: z.string(), message: z.string().optional() });
const reportItem = z.looseObject({
  requestId: z.string().min(1),
  report: z.array(z.looseObject({ number: z.string().optional(), status: z.coerce.string(), desc: z.string().optional() })).min(1),
});
const reportBody = z.union([z.looseObject({ data: z.array(reportItem) }), z.array(reportItem)]);
const inboundBody = z.looseObject({ requestId: z.coerce.string().min(1), sender: z.coerce.string().min(10), inNumber: z.coerce.string().optional(), content: z.string() });

/** A callback's body as an object: JSON, or a form (whose `data` field may hold JSON). */
function bodyOf(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    const form = formParams(body);
    if (form.data === undefined) return form;
    try {
      return JSON.parse(form.data);
    } catch {
      return null;
    }
  }
}

export function createMsg91Adapter(opts: Msg91Options): SmsAdapter {
  const base = opts.baseUrl ?? MSG91_BASE_URL;
  const fetchImpl = opts.fetch ?? ((input, init) => fetch(input, init));

  /** Whether the callback's address carries our token. */
  function fromMsg91(cb: ProviderCallback): boolean {
    return URL.canParse(cb.url) && safeEqual(new URL(cb.url).searchParams.get('token'), opts.webhookToken);
  }

  return {
    provider: 'msg91',
    async send(m: SmsRequest) {
      if (!m.template) throw new Error('MSG91 sends templates only: this message has no template (docs/sms.md "DLT templates")');
      const templateId = opts.templateIds.get(templateKey(m.template.kind, m.template.lang));
      if (!templateId) throw new Error(`SMS_TEMPLATE_IDS has no ${templateKey(m.template.kind, m.template.lang)}`);
      const answer = await callProvider(fetchImpl, `${base}/api/v5/flow`, {
        method: 'POST',
        headers: { authkey: opts.authKey, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ template_id: templateId, short_url: '0', recipients: [{ mobiles: m.to.replace(/^\+/, ''), ...m.template.vars }] }),
      });
      const a = flowAnswer.safeParse(answer.json);
      if (answer.status >= 200 && answer.status < 300 && a.success && a.data.type === 'success' && a.data.message) return { providerMessageId: a.data.message };
      throw new Error(`MSG91 refused the message (${answer.status}): ${a.success ? (a.data.message ?? '') : ''}`);
    },
    deliveryReports(cb): DeliveryReport[] | null {
      if (!fromMsg91(cb)) return null;
      const parsed = reportBody.safeParse(bodyOf(cb.body));
      if (!parsed.success) return null;
      const items = Array.isArray(parsed.data) ? parsed.data : parsed.data.data;
      // A message to one number has one report line; its last one is its state.
      return items.map((item) => {
        const last = item.report.at(-1)!;
        const state = msg91State(last.status);
        return { providerMessageId: item.requestId, state, ...(state === 'failed' && { error: `${last.status} ${last.desc ?? ''}`.trim() }) };
      });
    },
    inbound(cb) {
      if (!fromMsg91(cb)) return null;
      const p = inboundBody.safeParse(bodyOf(cb.body));
      if (!p.success) return null;
      return { from: e164(p.data.sender), to: e164(p.data.inNumber ?? ''), text: p.data.content, provider: 'msg91', providerMessageId: p.data.requestId, receivedAt: new Date() };
    },
  };
}

import type { PushKind, PushPayload } from '@pm/protocol/push';

/*
 * The texts of push messages, in English and Hindi. A device that said which language the app
 * was in when it subscribed gets that language; otherwise both, English first (a learner reading
 * Hindi finds their line, and the title stays short enough for a lock screen).
 */

type Lang = 'en' | 'hi';
type Bilingual = { en: string; hi: string };
export type Message = { kind: PushKind; title: Bilingual; body: Bilingual; url: string; tag: string };

/** Set titles are free text of any length; a notification shows about one line of them. */
const MAX_NAME = 80;
export function shortName(name: string): string {
  const flat = name.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_NAME ? `${flat.slice(0, MAX_NAME - 1)}…` : flat;
}

export function payloadFor(m: Message, lang: string | null): PushPayload {
  const l: Lang | null = lang === 'en' || lang === 'hi' ? lang : null;
  return {
    kind: m.kind,
    title: l ? m.title[l] : `${m.title.en} · ${m.title.hi}`,
    body: l ? m.body[l] : `${m.body.en}\n${m.body.hi}`,
    url: m.url,
    tag: m.tag,
    ...(l && { lang: l }),
  };
}

/** (a) A submission that reached the server late (made offline) has been scored. */
export function resultReady(set: { id: string; l: string }): Message {
  const name = shortName(set.l);
  return {
    kind: 'result-ready',
    title: { en: 'Your result is ready', hi: 'आपका परिणाम तैयार है' },
    body: { en: `${name}: tap to see your marks and answers.`, hi: `${name}: अपने अंक और उत्तर देखने के लिए टैप करें।` },
    url: `/exam-result/${encodeURIComponent(set.id)}/false`,
    tag: `result-${set.id}`,
  };
}

/** (b) New sets in a subject the learner has taken tests in. */
export function newSets(sets: { id: string; l: string }[], subject: Bilingual | null): Message {
  const first = sets[0]!;
  if (sets.length === 1) {
    const name = shortName(first.l);
    return {
      kind: 'new-set',
      title: { en: `New test: ${name}`, hi: `नया टेस्ट: ${name}` },
      body: subject
        ? { en: `A new ${subject.en} test is out. Download it and take it, even offline.`, hi: `${subject.hi} का नया टेस्ट आ गया है। इसे डाउनलोड करें और ऑफ़लाइन भी दें।` }
        : { en: 'A new test is out. Download it and take it, even offline.', hi: 'नया टेस्ट आ गया है। इसे डाउनलोड करें और ऑफ़लाइन भी दें।' },
      url: `/take-exam/${encodeURIComponent(first.id)}`,
      tag: 'new-sets',
    };
  }
  return {
    kind: 'new-set',
    title: { en: `${sets.length} new tests`, hi: `${sets.length} नए टेस्ट` },
    body: subject
      ? { en: `New ${subject.en} tests are out, among them ${shortName(first.l)}.`, hi: `${subject.hi} के नए टेस्ट आ गए हैं, जैसे ${shortName(first.l)}।` }
      : { en: `New tests are out, among them ${shortName(first.l)}.`, hi: `नए टेस्ट आ गए हैं, जैसे ${shortName(first.l)}।` },
    url: '/exam-list',
    tag: 'new-sets',
  };
}

const dateIn = (lang: Lang, at: number) =>
  new Intl.DateTimeFormat(lang === 'hi' ? 'hi-IN' : 'en-IN', { dateStyle: 'medium', timeZone: 'Asia/Kolkata' }).format(at);

/** (c) The learner's plan ends within three days (`days`, rounded up) and nothing follows it. */
export function planEnding(plan: { name: Bilingual; endsAt: number; entitlementId: string; days: number }): Message {
  const days = Math.max(1, plan.days);
  return {
    kind: 'plan-ending',
    title: days === 1 ? { en: 'Your plan ends within a day', hi: 'आपका प्लान एक दिन के भीतर समाप्त होगा' } : { en: `Your plan ends in ${days} days`, hi: `आपका प्लान ${days} दिन में समाप्त होगा` },
    body: {
      en: `${shortName(plan.name.en)} ends on ${dateIn('en', plan.endsAt)}. Renew it to keep taking tests.`,
      hi: `${shortName(plan.name.hi)} ${dateIn('hi', plan.endsAt)} को समाप्त होगा। टेस्ट देते रहने के लिए इसे फिर से लें।`,
    },
    url: '/plan',
    tag: `plan-${plan.entitlementId}`,
  };
}

/** (d) Staff answered or resolved the person's grievance (docs/charity.md "Grievances"). */
export function grievanceAnswered(g: { id: string; number: string; resolved: boolean }): Message {
  return {
    kind: 'grievance-answer',
    title: g.resolved ? { en: `Grievance ${g.number} resolved`, hi: `शिकायत ${g.number} का निपटारा हुआ` } : { en: `An answer to grievance ${g.number}`, hi: `शिकायत ${g.number} का उत्तर` },
    body: { en: 'Tap to read what the trust wrote.', hi: 'ट्रस्ट ने क्या लिखा, पढ़ने के लिए टैप करें।' },
    url: `/grievances/${encodeURIComponent(g.id)}`,
    tag: `grievance-${g.id}`,
  };
}

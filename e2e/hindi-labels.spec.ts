import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { PERMISSIONS } from '@pm/protocol/permission';
import { ADMIN_ROUTES, type DEMO, loginOnPhone, openAppDb } from './helpers';

/*
 * docs/admin.md, Language: in Hindi, every aria-label and every visible label of the header,
 * menus, admin, authoring and profile screens is Hindi. The exam-taking screens are checked by
 * their own specs. What may stay in Latin letters: proper nouns (people's names from the demo
 * data, brand names of payment providers, the formats' names) and numbers, codes and addresses.
 * At 360 px, as the learner, the editor and the admin.
 */

test.use({ viewport: { width: 360, height: 740 } });


const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixture = (name: string) => JSON.parse(readFileSync(path.join(root, 'fixtures', name), 'utf8')) as unknown;
/** The demo's people (their names are proper nouns, written as they were given). */
const PEOPLE = [
  ...(fixture('accounts.json') as { n: string }[]).map((a) => a.n),
  ...((fixture('demo-sales.json') as { signups: { n: string }[] }).signups ?? []).map((s) => s.n),
];
/** The built-in roles, whose stored English texts are shown translated (client/src/lib/built-in-labels.ts). */
const BUILT_IN_ROLES = ['ADMIN', 'QUESTION_EDITOR', 'MEMBER', 'DONOR', 'BENEFICIARY', 'TRUST', 'TRUSTEE'];

/**
 * What people typed in, read from the run's database: everyone's names (other specs of the run add
 * people) and the roles and permissions an admin made, with their descriptions. Data, shown as
 * written, not labels; the built-in roles and permissions are still checked.
 */
function typedData(): string[] {
  const db = openAppDb();
  try {
    const names = db.prepare('SELECT name FROM person').pluck().all() as string[];
    const roles = db.prepare('SELECT name, description FROM role').all() as { name: string; description: string }[];
    const permissions = db.prepare('SELECT permission, description FROM permission').all() as { permission: string; description: string }[];
    // A trust's receipt code starts its receipt numbers (docs/charity.md "Trusts"): data, as typed.
    const trustCodes = db.prepare('SELECT code FROM trust').pluck().all() as string[];
    return [
      ...names,
      ...trustCodes,
      ...roles.filter((r) => !BUILT_IN_ROLES.includes(r.name)).flatMap((r) => [r.name, r.description]),
      ...permissions.filter((p) => !Object.hasOwn(PERMISSIONS, p.permission)).map((p) => p.description),
    ].filter(Boolean);
  } finally {
    db.close();
  }
}
/** Proper nouns and names of formats (and of the tax documents PAN, 80G and Form 10BD) that Hindi writes in Latin letters too. */
/** 'English' is the language's own name, shown as such where a language is chosen. */
const PROPER = ['English', 'PAN', '80G', '10BD', 'Moodle GIFT', 'Aiken', 'PhonePe', 'Razorpay', 'UPI', 'LaTeX', 'KaTeX', 'CSV', 'JSON', 'PDF', 'Google', 'Chrome', 'Android', 'iPhone', 'WhatsApp', 'Gmail', 'Pariksha Mitra'];

/** The Latin words of `text` left once proper nouns, numbers, codes and addresses are taken out. */
function englishWords(text: string): string[] {
  let s = ` ${text} `;
  for (const p of [...PEOPLE, ...typed, ...PROPER].sort((a, b) => b.length - a.length)) s = s.split(p).join(' ');
  s = s
    .replace(/\S+@\S+/g, ' ') // e-mail addresses
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\b[A-Z][A-Z0-9]*(_[A-Z0-9]+)+\b/g, ' ') // permission codes (the data the Permissions screen edits)
    .replace(/\b(AM|PM|am|pm|ID|OK|A|B|C|D|E|x)\b/g, ' ');
  return s.match(/[A-Za-z]{2,}/g) ?? [];
}

/** Every aria-label, title, placeholder and visible label (buttons, links, tabs, headings, labels, table heads) on the page. */
async function labels(page: Page): Promise<{ what: string; text: string }[]> {
  return page.evaluate(() => {
    const out: { what: string; text: string }[] = [];
    const visible = (el: Element) => {
      const r = (el as HTMLElement).getBoundingClientRect?.();
      const style = getComputedStyle(el as HTMLElement);
      return !!r && r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
    };
    // User content (questions, pages an admin wrote, JSON of the activity log) is not a label.
    // Nor is what is hidden from everyone, or drawn in English on purpose (a question's preview in
    // the language being edited, marked lang="en").
    const content = (el: Element) => !!el.closest('.ProseMirror, [data-user-content], .static-page, .w-json-view-container, [contenteditable="true"], [aria-hidden="true"], [lang="en"]');
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [aria-roledescription]')) {
      if (content(el)) continue;
      for (const a of ['aria-label', 'title', 'placeholder', 'aria-roledescription']) {
        const v = el.getAttribute(a);
        if (v) out.push({ what: `${el.tagName.toLowerCase()}[${a}]`, text: v });
      }
    }
    for (const el of document.querySelectorAll('button, a, label, legend, th, h1, h2, h3, h4, [role="tab"], [role="menuitem"], [role="radio"], option, .mantine-NavLink-label, .mantine-Badge-label, .mantine-SegmentedControl-label')) {
      if (content(el) || !(el.tagName === 'OPTION' || visible(el))) continue;
      const text = (el as HTMLElement).innerText?.trim() ?? el.textContent?.trim() ?? '';
      if (text) out.push({ what: el.tagName.toLowerCase(), text });
    }
    return out;
  });
}

const problems: string[] = [];
let typed: string[] = [];

async function check(page: Page, url: string, ready: () => Promise<unknown>) {
  await page.goto(url);
  await ready();
  // Lazy parts (menus, tooltips' targets, charts) settle.
  await page.waitForTimeout(800);
  for (const { what, text } of await labels(page)) {
    const words = englishWords(text);
    if (words.length > 0) problems.push(`${url} ${what}: "${text}" (${words.join(' ')})`);
  }
}

async function login(page: Page, who: keyof typeof DEMO) {
  await loginOnPhone(page, who);
  await page.evaluate(() => localStorage.setItem('lang', 'hi'));
}

const main = (page: Page) => () => expect(page.locator('main, [role="main"]').first()).toBeVisible({ timeout: 30_000 });
const heading = (page: Page) => () => expect(page.getByRole('heading').first()).toBeVisible({ timeout: 30_000 });

test('in Hindi, no aria-label or label is English-only, as learner, editor and admin', async ({ browser }) => {
  test.setTimeout(300_000);
  typed = typedData();
  const learner = await browser.newPage();
  await login(learner, 'learner');
  // The exam list and the test screens are checked by the exam specs (their set names are editors' data).
  for (const url of ['/', '/about-us', '/faq', '/plan', '/contact', '/profile', '/tnc', '/privacy']) await check(learner, url, heading(learner));
  // The drawer (the phone's menu) and its labels.
  await learner.getByRole('button', { name: 'मेन्यू खोलें' }).click();
  await learner.waitForTimeout(500);
  for (const { what, text } of await labels(learner)) if (englishWords(text).length) problems.push(`drawer (learner) ${what}: "${text}"`);
  await learner.close();

  const editor = await browser.newPage();
  await login(editor, 'editor');
  for (const url of ['/question-list', '/question-set', '/question-editor', '/question-import']) await check(editor, url, heading(editor));
  await editor.close();

  const admin = await browser.newPage();
  await login(admin, 'admin');
  // The back office's screens (the dashboard is /admin's own), then the admin's profile.
  for (const url of [...ADMIN_ROUTES.filter((r) => r !== '/dashboard'), '/profile'])
    await check(admin, url, main(admin));
  await admin.close();

  expect(problems, problems.join('\n')).toEqual([]);
});

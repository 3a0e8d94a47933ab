import type { StaticPageKey, StaticPageLang } from '@pm/protocol/static-page';
import { COPYRIGHT_EMAIL, paths } from '../config/paths';
import { trustName } from '../config/site';
import i18n from './i18n';

/**
 * A public page's built-in text as HTML, in `lang`: what the back office's Static pages editor
 * starts from while that language has no text of its own (docs/admin.md, Static pages), so that
 * an admin edits the page rather than replacing it with a blank one. Built from the same
 * resource files the built-in page draws (about, faq, legal), with the headings, paragraphs,
 * lists and links the editor keeps; pictures and toggles of the drawn page are left out.
 */
export async function builtInPageHtml(key: StaticPageKey, lang: StaticPageLang): Promise<string> {
  const ns = key === 'about' ? 'about' : key === 'faq' ? 'faq' : 'legal';
  // Through i18next's backend (lib/i18n), for a language that need not be the reader's.
  if (!i18n.hasResourceBundle(lang, ns)) await i18n.reloadResources([lang], [ns]);
  const fixed = i18n.getFixedT(lang, ns) as unknown as (k: string, o?: Record<string, unknown>) => unknown;
  // {{trust}} in `lang`, which need not be the reader's language.
  const t = (k: string, o?: Record<string, unknown>) => fixed(k, { trust: trustName(lang), ...o });
  const s = (k: string, o?: Record<string, unknown>) => escapeHtml(String(t(k, o)));
  const list = (k: string, o?: Record<string, unknown>) => {
    const v = t(k, { ...o, returnObjects: true });
    return Array.isArray(v) ? (v as unknown[]) : [];
  };
  const paras = (items: unknown[]) => items.map((p) => `<p>${escapeHtml(String(p))}</p>`).join('');
  switch (key) {
    case 'about':
      return [
        `<h2>${s('title')}</h2>`,
        paras(list('intro')),
        `<h2>${s('purpose.mission.title')}</h2>`,
        paras(list('purpose.mission.paragraphs')),
        `<h2>${s('purpose.vision.title')}</h2>`,
        paras(list('purpose.vision.paragraphs')),
        `<h2>${s('offer.title')}</h2>`,
        ...ABOUT_OFFER.map((id) => `<h3>${s(`offer.items.${id}.title`)}</h3><p>${s(`offer.items.${id}.text`)}</p>`),
        `<h2>${s('trust.title')}</h2>`,
        paras(list('trust.paragraphs')),
        `<p><a href="${paths.faq}">${s('trust.faq')}</a> · <a href="${paths.contact}">${s('trust.contact')}</a></p>`,
      ].join('');
    case 'faq':
      return [
        `<h2>${s('title')}</h2>`,
        `<p>${s('intro')}</p>`,
        ...FAQ_CATEGORIES.map(
          (id) =>
            `<h2>${s(`categories.${id}.title`)}</h2>` +
            (list(`categories.${id}.items`) as { q: string; a: string }[]).map((item) => `<h3>${escapeHtml(item.q)}</h3><p>${escapeHtml(item.a)}</p>`).join(''),
        ),
        `<p>${s('stillQuestions')} <a href="${paths.contact}">${s('contact')}</a></p>`,
      ].join('');
    case 'terms':
    case 'privacy': {
      const doc = key;
      const sections = list(`${doc}.sections`, { email: COPYRIGHT_EMAIL }) as { title: string; body: string[]; list?: string[]; after?: string[] }[];
      return [
        `<h2>${s(`${doc}.title`)}</h2>`,
        paras(list(`${doc}.intro`)),
        ...sections.map(
          (section, i) =>
            `<h3>${i + 1}. ${escapeHtml(section.title)}</h3>` +
            paras(section.body) +
            (section.list ? `<ul>${section.list.map((item) => `<li><p>${escapeHtml(item)}</p></li>`).join('')}</ul>` : '') +
            paras(section.after ?? []),
        ),
      ].join('');
    }
  }
}

/** The order of the built-in About and FAQ pages (features/about, features/faq). */
const ABOUT_OFFER = ['success', 'papers', 'exams', 'scholarships', 'compete'] as const;
const FAQ_CATEGORIES = ['fundraiser', 'campaigns', 'payments', 'legal', 'account'] as const;

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/*
 * What a learner's screen shows of a question set in a language, and its marks: one place for
 * the language choice (docs/exams.md "Set texts in two languages") and for the totals
 * (docs/exams.md "Total marks"). No zod here: the exam screens load it in their first chunk.
 */

/** A part's translated names: language → name (English is the section's key). */
export type PartNames = Partial<Record<string, string>>;

/** What of a set carries text: its English, its translations and its parts' names. */
export type SetTextSource = {
  l: string;
  inst: string;
  trans?: Partial<Record<string, { l?: string | undefined; inst?: string | undefined }>> | undefined;
  sections: Record<string, { names?: PartNames | undefined; sub?: Record<string, { names?: PartNames | undefined }> | undefined }>;
};

/** A set's texts in one language; `fallback` says that some of them are English for want of it. */
export type SetText = {
  l: string;
  inst: string;
  /** The name of a section (`sub` null) or of one of its sub-sections, in the language. */
  part: (section: string, sub?: string | null) => string;
  fallback: boolean;
};

/** Text with no words and no image (`<p></p>`, spaces): a translation left empty. */
export function isBlankText(html: string | undefined | null): boolean {
  return !html || (!/<img\b/i.test(html) && html.replace(/<[^>]*>/g, '').replace(/&nbsp;|&#160;|\u00a0/gi, ' ').trim() === '');
}

/**
 * A set's title, instructions and part names in `lang`, each falling back to English where the
 * translation is missing or blank (as questions do, docs/exams.md). English is the set's own
 * fields; `lang` 'en' (or any language without a translation) gives them unchanged.
 */
export function setText(set: SetTextSource, lang: string): SetText {
  const base = lang.split('-')[0] ?? lang;
  const tr = base === 'en' ? undefined : set.trans?.[base];
  let fallback = false;
  const pick = (own: string | undefined, english: string) => {
    if (base === 'en' || english === '') return english;
    if (isBlankText(own)) {
      fallback = true;
      return english;
    }
    return own!;
  };
  const l = pick(tr?.l, set.l);
  const inst = pick(tr?.inst, set.inst);
  const named = (names: PartNames | undefined, english: string) => {
    const own = base === 'en' ? undefined : names?.[base]?.trim();
    return own ? own : english;
  };
  const part = (section: string, sub?: string | null) => {
    const s = set.sections[section];
    if (sub) return named(s?.sub?.[sub]?.names, sub);
    return named(s?.names, section);
  };
  if (base !== 'en') {
    for (const [name, s] of Object.entries(set.sections)) {
      if (named(s.names, name) === name) fallback = true;
      for (const [subName, sub] of Object.entries(s.sub ?? {})) if (named(sub.names, subName) === subName) fallback = true;
    }
  }
  return { l, inst, part, fallback };
}

/**
 * The marks of a part: its questions × its marks per question (the selection limit of docs/exams.md "Rules of a save" reads the other way: the
 * allowed count is floor(total / marks per question)). Rounded to hundredths, as marks are typed.
 */
export function partMarks(questions: number, mpq: number): number {
  return Math.round(questions * mpq * 100) / 100;
}

type CountedPart = { n: number; mpq: number };
/** A set as the `question_set` document counts it: question counts and marks per part. */
export type CountedSet = CountedPart & { sections: Record<string, CountedPart & { ss: boolean; sub?: Record<string, CountedPart> | undefined }> };

/**
 * The total marks of a set, part by part from its questions (docs/exams.md "Total marks"): what
 * the exam list, the intro and the result say, whatever total an editor typed or left at 0.
 */
export function setTotalMarks(set: CountedSet): number {
  let total = partMarks(set.n, set.mpq);
  for (const s of Object.values(set.sections)) {
    if (s.ss) for (const sub of Object.values(s.sub ?? {})) total += partMarks(sub.n, sub.mpq);
    else total += partMarks(s.n, s.mpq);
  }
  return Math.round(total * 100) / 100;
}

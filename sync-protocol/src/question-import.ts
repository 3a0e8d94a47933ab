import { z } from 'zod';
import { idSchema } from './common';
import type { QuestionType } from './question';

/**
 * Import and export of questions (docs/authoring.md "Import and export"): a bilingual CSV template, Moodle GIFT and Aiken.
 * The file travels as text inside a JSON body; the server parses it again on confirm, so a preview
 * and the store that follows read the same rows.
 */
export const IMPORT_FORMATS = ['csv', 'gift', 'aiken'] as const;
export const importFormatSchema = z.enum(IMPORT_FORMATS);
export type ImportFormat = z.infer<typeof importFormatSchema>;

/**
 * Largest import request, in bytes of the JSON body. A 5,000-row bilingual CSV is about 4 MB
 * (Devanagari is 3 bytes a character in UTF-8); 10 MiB leaves room for twice that.
 */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** Rows (questions) one file may hold. */
export const IMPORT_MAX_ROWS = 10_000;

const fileFields = {
  fileName: z.string().trim().min(1).max(200),
  format: importFormatSchema,
  content: z.string().min(1).max(IMPORT_MAX_BYTES),
};

/** POST /api/question/import/preview: the file, parsed and checked, nothing stored. */
export const importPreviewSchema = z.strictObject(fileFields);
export type ImportPreviewInput = z.infer<typeof importPreviewSchema>;

/**
 * POST /api/question/import: `mode` 'valid' stores every valid row (rows with errors are left
 * out); 'all' stores all rows or, when any row has an error, nothing (400). `skipDuplicates`
 * leaves out rows already imported (and rows repeating an earlier row of the same file).
 */
export const importConfirmSchema = z.strictObject({
  ...fileFields,
  mode: z.enum(['valid', 'all']),
  skipDuplicates: z.boolean(),
});
export type ImportConfirmInput = z.infer<typeof importConfirmSchema>;

/** GET /api/question/export?format&qids | qsid: one of the two selections. */
export const exportQuerySchema = z
  .strictObject({
    format: importFormatSchema,
    qids: z
      .string()
      .transform((v) => v.split(',').map((x) => x.trim()).filter(Boolean))
      .pipe(z.array(idSchema).min(1).max(1000))
      .optional(),
    qsid: idSchema.optional(),
  })
  .refine((v) => (v.qids === undefined) !== (v.qsid === undefined), { message: 'Give either qids or qsid' });

/**
 * Why a row cannot be stored (errors) or what of it is not kept (warnings). Codes with
 * parameters, so that the client words them in the reader's language (locales authoring-import
 * `issues.<code>`).
 */
export const IMPORT_ISSUE_CODES = [
  // file structure
  'csvFields',
  'unclosedBrace',
  'badWeight',
  'badNumber',
  'aikenNoAnswer',
  'aikenNoOptions',
  'duplicateOption',
  // our question types
  'unknownType',
  'unsupportedType',
  'essayNoModel',
  'partialCredit',
  'unequalWeights',
  'tooManyOptions',
  'answerNotOption',
  'oneCorrectAnswer',
  'answerHiForOptions',
  'hindiIncomplete',
  'badDifficulty',
  'badMarks',
  'unknownTag',
  'oneSubject',
  // the question's own rules (docs/exams.md "Rules of a save")
  'questionBlank',
  'optionBlank',
  'correctAnswerMissing',
  'optionsNotAllowed',
  'numericAnswer',
  'tooLong',
  'invalid',
  // warnings
  'feedbackDropped',
  'marksNotStored',
  'categoryNotTag',
] as const;
export type ImportIssueCode = (typeof IMPORT_ISSUE_CODES)[number];
export type ImportIssue = { code: ImportIssueCode; params?: Record<string, string | number> };

/** One row of a preview: where it is, what it became, and what stops or changes it. */
export type ImportPreviewRow = {
  /** 1-based number of the row (CSV data row, GIFT or Aiken question) in the file. */
  n: number;
  /** The line of the file where it starts (GIFT, Aiken). */
  line?: number;
  /** A GIFT title. */
  title?: string;
  qt: QuestionType | null;
  /** The question as plain text, cut to 200 characters. */
  text: string;
  errors: ImportIssue[];
  warnings: ImportIssue[];
  /** Stored before by an import: the live question it became. */
  duplicateOf?: string;
  /** Repeats an earlier row of this file. */
  duplicateOfRow?: number;
};

export type ImportPreview = {
  fileName: string;
  format: ImportFormat;
  fileHash: string;
  /** This very file was imported before (the latest time). */
  importedBefore: { at: number; fileName: string; stored: number } | null;
  rows: ImportPreviewRow[];
  counts: { rows: number; valid: number; invalid: number; duplicates: number };
};

/** POST /api/question/import/preview → `{ success, data: ImportPreview }`. */
export type ImportPreviewResponse = { success: true; data: ImportPreview };
/** POST /api/question/import → what was stored. */
export type ImportResult = { success: true; msg: string; importId: string | null; stored: number; skipped: number; ids: string[] };


import { z } from 'zod';
import { idSchema } from '../common';
import { SET_LANGUAGES } from '../question-set';

const marks = z.number().min(0).max(100_000);
const ids = z.array(idSchema).max(1000);
/** A part's name in other languages (language → name; English is the key). */
const names = z.record(z.string(), z.string().max(80));
const part = z.strictObject({ q: ids, mpq: marks, tm: marks, nm: marks, o: z.number().int().min(0), names: names.optional() });

/**
 * Store `ed_question_set` (docs/authoring.md "Offline authoring"; editors only, pull and push): the question sets on an
 * editor's device, with the ids of their questions, so that a set is assembled offline from the
 * bank the device holds (`ed_question`). The fields are the editor API's (sync-protocol
 * question-set.ts); the set rules (labels, sections, selection limits, approved questions in a set
 * that is not a draft) are checked by the device with the same zod schema and again by the server
 * when the change is pushed.
 *
 * Conflicts (RxDB's protocol: the push carries the assumed master state) are decided by
 * `updatedAt`, which only an editor's save changes on the server (publishing, or a question of
 * the set changing, does not): a pushed change whose assumed `updatedAt` is not the server's is
 * not applied, and the server's set is answered as the conflict. A set made on a device carries
 * an id made there and `updatedAt` 0 in its assumed state until the server has stored it.
 */
export const edQuestionSetDocSchema = z.strictObject({
  id: idSchema,
  l: z.string().max(200),
  mpq: marks,
  tm: marks,
  nm: marks,
  dur: z.number().int().min(0).max(24 * 60),
  isM: z.boolean(),
  free: z.boolean(),
  inst: z.string().max(50_000),
  q: ids,
  sections: z.record(
    z.string().max(200),
    z.strictObject({
      ss: z.boolean(),
      q: ids,
      mpq: marks,
      tm: marks,
      nm: marks,
      o: z.number().int().min(0),
      names: names.optional(),
      sub: z.record(z.string().max(200), part).optional(),
    }),
  ),
  pts: z.number().int().min(0),
  draft: z.boolean(),
  langs: z.array(z.enum(SET_LANGUAGES)).max(SET_LANGUAGES.length),
  /** Title and instructions in other languages (the editor API's `trans`). */
  trans: z.record(z.string(), z.strictObject({ l: z.string().max(200), inst: z.string().max(50_000) })),
  /** Whether learners see it now (the server's; a device's guess until the server answers). */
  published: z.boolean(),
  /** The set's version (docs/authoring.md "Publishing and unpublishing": grows when a taken set's questions or marks change). */
  version: z.number().int().min(0),
  /** How many results it has, as last known from the server. */
  taken: z.number().int().min(0),
  createdAt: z.number().int(),
  /** Last editor's change (ms): the server's clock once stored, the device's before. */
  updatedAt: z.number().int(),
  _deleted: z.boolean(),
});
export type EdQuestionSetDoc = z.infer<typeof edQuestionSetDocSchema>;

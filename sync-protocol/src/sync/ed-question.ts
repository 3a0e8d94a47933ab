import { z } from 'zod';
import { idSchema } from '../common';
import { difficultySchema, questionStatusSchema, questionTransSchema, questionTypeSchema, REASON_MAX } from '../question';
import { tidSchema } from '../tag';

/**
 * Store `ed_question` (docs/authoring.md "Offline authoring"; editors only, pull and push): the question bank on an
 * editor's device, so that questions are written, edited and translated by hand offline. A
 * learner's device never opens this collection, and the server refuses its pull and push to
 * anyone without the QUESTION_EDITOR permission (it holds the correct answers of mock tests).
 *
 * Conflicts (RxDB's protocol: the push carries the assumed master state) are decided by the
 * whole assumed document: a pushed edit whose assumed master state is not the server's current
 * document, every field of it (`version`, which only the server assigns, is one), is not
 * applied, and the server's document is answered as the conflict, for the editor to choose or
 * merge. A document created on a device carries an
 * id made there (a UUID) and version 0 until the server has stored it.
 */
export const edQuestionDocSchema = z.strictObject({
  id: idSchema,
  q: z.string().max(20_000),
  ops: z.record(z.string().regex(/^[a-z0-9]{1,8}$/), z.string().max(20_000)),
  c: z.array(tidSchema).max(20),
  d: difficultySchema,
  ca: z.array(z.string().max(500)).max(20),
  qt: questionTypeSchema,
  s: tidSchema.nullable(),
  t: z.array(tidSchema).max(20),
  e: z.array(tidSchema).max(20),
  st: questionStatusSchema,
  reason: z.string().max(REASON_MAX).nullable(),
  trans: z.record(z.string().regex(/^[a-z]{2}$/), questionTransSchema),
  /** The explanation (worked solution) in English; '' for none. */
  expl: z.string().max(20_000),
  /** The server's version of the question; 0 for one made on a device and not yet stored. */
  version: z.number().int().min(0),
  /** Last change (ms): the server's clock once stored, the device's before. */
  updatedAt: z.number().int(),
  _deleted: z.boolean(),
});
export type EdQuestionDoc = z.infer<typeof edQuestionDocSchema>;

/**
 * The answer of POST /api/sync/v1/ed_question/push: `conflicts` are the server's documents for
 * the rows whose assumed master state was not the server's (RxDB's push answer); `refused` are
 * rows the server's rules did not accept although nothing conflicted (a tag deleted meanwhile,
 * a question a published set holds, …), each with the message to show. A refused row is not
 * stored; the device keeps it for the editor to correct and save again. `stored` are the server's
 * documents for the rows it stored, as stored (with the version it gave them): the device takes
 * them as the new master states at once, so that a pull that ran while the push was under way
 * (and passed them over as changes not yet uploaded) does not leave the device a version behind.
 */
export type EdPushAnswer<D> = { conflicts: D[]; refused: { id: string; msg: string }[]; stored: D[] };

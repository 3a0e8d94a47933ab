import { expectTypeOf, test } from 'vitest';
import type { z } from 'zod';
import type { NeedItem, trustSchema } from '@pm/protocol/campaign';
import type { planSchema } from '@pm/protocol/plan';
import type { Question } from '@pm/protocol/question';
import type { QuestionSet } from '@pm/protocol/question-set';
import type { Tag } from '@pm/protocol/tag';
import type { campaign, plan, question, questionSet, tag, trust } from './schema';

/*
 * CONVENTIONS rule 3: the Drizzle tables match the sync-protocol schemas. These checks fail the
 * typecheck (npm run typecheck covers test files) when one side changes without the other.
 */

type Row<T extends { $inferSelect: unknown }> = T['$inferSelect'];
type Insert<T extends { $inferInsert: unknown }> = T['$inferInsert'];

test('a stored question reads back as the wire Question and a wire Question can be stored', () => {
  expectTypeOf<Pick<Row<typeof question>, 'id' | 'q' | 'ops' | 'c' | 'ca' | 't' | 'e' | 'trans'>>().toExtend<
    Pick<Question, 'id' | 'q' | 'ops' | 'c' | 'ca' | 't' | 'e' | 'trans'>
  >();
  expectTypeOf<Omit<Question, 's'> & { s: string | null }>().toExtend<Omit<Insert<typeof question>, 'rev' | 'updatedAt'>>();
});

test('a wire QuestionSet can be stored and its parts read back', () => {
  expectTypeOf<QuestionSet>().toExtend<Omit<Insert<typeof questionSet>, 'rev' | 'updatedAt'>>();
  expectTypeOf<Pick<Row<typeof questionSet>, 'id' | 'l' | 'q' | 'pts' | 'isM' | 'dur'>>().toExtend<
    Pick<QuestionSet, 'id' | 'l' | 'q' | 'pts' | 'isM' | 'dur'>
  >();
  expectTypeOf<QuestionSet['sections'][string]>().toExtend<Row<typeof questionSet>['sections'][string]>();
});

test('tags and plans match', () => {
  expectTypeOf<Pick<Row<typeof tag>, 'tid' | 'tags'>>().toExtend<Pick<Tag, 'tid' | 'tags'>>();
  expectTypeOf<Tag>().toExtend<Omit<Insert<typeof tag>, 'rev' | 'uat'>>();
  type Plan = z.output<typeof planSchema>;
  expectTypeOf<Pick<Plan, 'code' | 'name' | 'total' | 'approx' | 'contents'>>().toExtend<Insert<typeof plan>>();
});

test('a campaign\'s need and a trust\'s settings match (docs/charity.md)', () => {
  expectTypeOf<NeedItem[]>().toExtend<Insert<typeof campaign>['need']>();
  expectTypeOf<Row<typeof campaign>['need']>().toExtend<NeedItem[]>();
  expectTypeOf<z.output<typeof trustSchema>>().toExtend<Omit<Insert<typeof trust>, 'updatedAt'>>();
});

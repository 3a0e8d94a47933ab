import { expect, test } from 'vitest';
import { PERMISSIONS } from '@pm/protocol/permission';
import { ROUTE_ACCESS } from '../../config/route-access';
import { learnerSession } from '../../testing/fetch-mock';
import { navModel } from './nav-model';

const as = (permissions: string) => navModel({ ...learnerSession, permissions });
const keys = (items: { key: string }[]) => items.map((i) => i.key);

test('a guest and a learner see no Questions and no Reports menu', () => {
  expect(keys(navModel(null).main)).toEqual(['home', 'about', 'exams', 'plans']);
  // A signed-in learner also has their results (docs/exams.md "My results").
  for (const m of [as('MEMBER'), as('')]) expect(keys(m.main)).toEqual(['home', 'about', 'exams', 'plans', 'my-results']);
  for (const m of [navModel(null), as('MEMBER'), as('')]) {
    expect(m.questions).toEqual([]);
    expect(m.reports).toEqual([]);
  }
});

test('a question editor sees the Questions menu and no Reports', () => {
  const m = as('QUESTION_EDITOR');
  expect(keys(m.questions)).toEqual(['create-question', 'question-list', 'question-set-list']);
  expect(m.reports).toEqual([]);
});

test('each report entry shows only with what its route asks for', () => {
  expect(keys(as('VIEW_REPORT').reports)).toEqual(['transaction-report', 'global-earning-report']);
  expect(keys(as('SHOP_EDITOR').reports)).toEqual(['admin']);
  expect(keys(as('SHOP_EDITOR,VIEW_REPORT').reports)).toEqual(['admin', 'sale-report', 'transaction-report', 'global-earning-report']);
  // The grievance queue (docs/charity.md "Grievances"): a trustee holds VIEW_REPORT and HANDLE_GRIEVANCE.
  expect(keys(as('APPROVE_CAMPAIGN,HANDLE_GRIEVANCE,VIEW_REPORT').reports)).toEqual(['transaction-report', 'global-earning-report', 'grievance-queue']);
  expect(keys(as(Object.keys(PERMISSIONS).join(',')).questions)).toHaveLength(3);
  // docs/charity.md "The withdrawal screens": the trustees' queue.
  expect(keys(as('VIEW_REPORT,APPROVE_CAMPAIGN,APPROVE_WITHDRAWAL').reports)).toEqual(['transaction-report', 'global-earning-report', 'withdrawals']);
});

test('every entry of the model points at a route of the access table the guards read', () => {
  const all = as(Object.keys(PERMISSIONS).join(','));
  const guarded = ['/question-editor', '/question-list', '/question-set', '/admin', '/dashboard', '/transaction-report', '/global-earning-report', '/grievance-queue', '/withdrawals'];
  expect([...all.questions, ...all.reports].map((i) => i.to).sort()).toEqual(guarded.sort());
  expect(Object.keys(ROUTE_ACCESS)).toEqual(expect.arrayContaining(['questionEditor', 'questionList', 'questionSet', 'admin', 'dashboard', 'transactionReport', 'globalEarningReport', 'grievanceQueue', 'withdrawals']));
});

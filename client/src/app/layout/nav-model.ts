import { paths } from '../../config/paths';
import type { Session } from '../../lib/session';
import { permissionsOf } from '../../lib/session';

export type NavLinkItem = { key: string; label: NavLabel; to: string };
export type NavLabel =
  | 'nav.home'
  | 'nav.about'
  | 'nav.createQuestion'
  | 'nav.questionList'
  | 'nav.questionSetList'
  | 'nav.exams'
  | 'nav.plans'
  | 'nav.admin'
  | 'nav.saleReport'
  | 'nav.transactionReport'
  | 'nav.globalEarningReport'
  | 'nav.profile'
  | 'nav.myResults';

/** What the navigation bar and the drawer show (spec §2 Global layout), for a given session. */
export function navModel(session: Session | null) {
  const perms = permissionsOf(session);
  const main: NavLinkItem[] = [
    { key: 'home', label: 'nav.home', to: paths.home },
    { key: 'about', label: 'nav.about', to: paths.about },
    { key: 'exams', label: 'nav.exams', to: paths.examList },
    { key: 'plans', label: 'nav.plans', to: paths.plan },
    // A learner's own results (docs/exams.md "My results"), for those signed in.
    ...(session ? [{ key: 'my-results', label: 'nav.myResults', to: paths.myResults } as const] : []),
  ];
  // The Questions items show only when logged in (spec §2, §6).
  const questions: NavLinkItem[] = session
    ? [
        { key: 'create-question', label: 'nav.createQuestion', to: paths.questionEditor },
        { key: 'question-list', label: 'nav.questionList', to: paths.questionList },
        { key: 'question-set-list', label: 'nav.questionSetList', to: paths.questionSet },
      ]
    : [];
  // The reports menu only for those with the permission.
  const reports: NavLinkItem[] = [];
  if (perms.has('SHOP_EDITOR')) reports.push({ key: 'admin', label: 'nav.admin', to: paths.admin });
  if (perms.has('VIEW_REPORT')) {
    reports.push(
      { key: 'sale-report', label: 'nav.saleReport', to: paths.dashboard },
      { key: 'transaction-report', label: 'nav.transactionReport', to: paths.transactionReport },
      { key: 'global-earning-report', label: 'nav.globalEarningReport', to: paths.globalEarningReport },
    );
  }
  return { main, questions, reports };
}

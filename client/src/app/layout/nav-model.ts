import { paths } from '../../config/paths';
import type { Session } from '../../lib/session';
import { permissionsOf } from '../../lib/session';
import { mayOpen, ROUTE_ACCESS, type RouteAccess } from '../../config/route-access';

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
  | 'nav.grievanceQueue'
  | 'nav.withdrawals'
  | 'nav.profile'
  | 'nav.myResults';

/**
 * What the navigation bar and the drawer show, for a given session: an
 * entry shows only to whom its screen's route lets in (config/route-access, the table the route
 * guards read too), so a learner sees no Questions menu and nobody a screen that refuses them.
 */
export function navModel(session: Session | null) {
  const perms = permissionsOf(session);
  const may = (...access: RouteAccess[]) => session !== null && access.every((a) => mayOpen(a, perms));
  const main: NavLinkItem[] = [
    { key: 'home', label: 'nav.home', to: paths.home },
    { key: 'about', label: 'nav.about', to: paths.about },
    { key: 'exams', label: 'nav.exams', to: paths.examList },
    { key: 'plans', label: 'nav.plans', to: paths.plan },
    // A learner's own results (docs/exams.md "My results"), for those signed in.
    ...(session ? [{ key: 'my-results', label: 'nav.myResults', to: paths.myResults } as const] : []),
  ];
  const questions: NavLinkItem[] = [];
  if (may(ROUTE_ACCESS.questionEditor)) questions.push({ key: 'create-question', label: 'nav.createQuestion', to: paths.questionEditor });
  if (may(ROUTE_ACCESS.questionList)) questions.push({ key: 'question-list', label: 'nav.questionList', to: paths.questionList });
  if (may(ROUTE_ACCESS.questionSet)) questions.push({ key: 'question-set-list', label: 'nav.questionSetList', to: paths.questionSet });
  const reports: NavLinkItem[] = [];
  if (may(ROUTE_ACCESS.admin)) reports.push({ key: 'admin', label: 'nav.admin', to: paths.admin });
  // The sale report is a card of the dashboard that needs VIEW_REPORT besides the dashboard's own access.
  if (may(ROUTE_ACCESS.dashboard, { all: ['VIEW_REPORT'] })) reports.push({ key: 'sale-report', label: 'nav.saleReport', to: paths.dashboard });
  if (may(ROUTE_ACCESS.transactionReport)) reports.push({ key: 'transaction-report', label: 'nav.transactionReport', to: paths.transactionReport });
  if (may(ROUTE_ACCESS.globalEarningReport)) reports.push({ key: 'global-earning-report', label: 'nav.globalEarningReport', to: paths.globalEarningReport });
  // The staff's grievance queue (docs/charity.md "Grievances"): trustees and admins, by HANDLE_GRIEVANCE.
  if (may(ROUTE_ACCESS.grievanceQueue)) reports.push({ key: 'grievance-queue', label: 'nav.grievanceQueue', to: paths.grievanceQueue });
  // The trustees' withdrawal queue (docs/charity.md "The withdrawal screens"), for APPROVE_WITHDRAWAL.
  if (may(ROUTE_ACCESS.withdrawals)) reports.push({ key: 'withdrawals', label: 'nav.withdrawals', to: paths.withdrawals });
  return { main, questions, reports };
}

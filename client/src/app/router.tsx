import { createBrowserRouter, type RouteObject } from 'react-router';
import { AreaPage } from './area-page';
import { RootLayout } from './layout/root-layout';
import { RequireAuth } from './require-auth';
import { NotFoundPage, RouteError } from './route-error';

/** Lazy page: every screen is its own chunk, so the first visit downloads only the shell. */
const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

const home = page(() => import('../features/home/components/home-page'));

/** Routes of spec §2. `handle.title` is a common:titles key. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, lazy: home, handle: { title: 'titles.home' } },
      { path: 'home', lazy: home, handle: { title: 'titles.home' } },
      { path: 'about-us', lazy: page(() => import('../features/about/components/about-page')), handle: { title: 'titles.about' } },
      { path: 'faq', lazy: page(() => import('../features/faq/components/faq-page')), handle: { title: 'titles.faq' } },
      { path: 'privacy', lazy: page(() => import('../features/legal/components/privacy-page')), handle: { title: 'titles.privacy' } },
      { path: 'privacypolicy', lazy: page(() => import('../features/legal/components/privacy-page')), handle: { title: 'titles.privacy' } },
      { path: 'tnc', lazy: page(() => import('../features/legal/components/terms-page')), handle: { title: 'titles.terms' } },
      { path: 'contact', lazy: page(() => import('../features/contact/components/contact-page')), handle: { title: 'titles.contact' } },
      { path: 'plan', lazy: page(() => import('../features/plans/components/plan-page')), handle: { title: 'titles.plan' } },
      { path: 'login/:error?', lazy: page(() => import('../features/auth/components/login-page')), handle: { title: 'titles.login' } },
      { path: 'forgot-password', lazy: page(() => import('../features/auth/components/forgot-password-page')), handle: { title: 'titles.forgotPassword' } },
      {
        path: 'reset-password',
        lazy: page(() => import('../features/auth/components/reset-password-page')),
        handle: { title: 'titles.resetPassword' },
      },
      { path: 'profile', lazy: page(() => import('../features/auth/components/profile-page')), handle: { title: 'titles.profile' } },

      // Areas built by later issues; the guards are in place now (spec §2, §6).
      {
        path: 'exam-list',
        element: (
          <RequireAuth>
            <AreaPage area="examList" title="examList" />
          </RequireAuth>
        ),
        handle: { title: 'titles.examList' },
      },
      ...(['question-editor', 'question-list', 'question-set', 'question-set/:id'] as const).map((path) => ({
        path,
        element: (
          <RequireAuth permissions={['QUESTION_EDITOR']}>
            <AreaPage
              area={path === 'question-editor' ? 'questionEditor' : path === 'question-list' ? 'questionList' : 'questionSet'}
              title={path === 'question-editor' ? 'questionEditor' : path === 'question-list' ? 'questionList' : 'questionSet'}
            />
          </RequireAuth>
        ),
        handle: { title: path === 'question-editor' ? 'titles.questionEditor' : path === 'question-list' ? 'titles.questionList' : 'titles.questionSet' },
      })),
      {
        path: 'admin/*',
        element: (
          <RequireAuth permissions={['SHOP_EDITOR']}>
            <AreaPage area="admin" title="admin" />
          </RequireAuth>
        ),
        handle: { title: 'titles.admin' },
      },
      {
        path: 'dashboard',
        element: (
          <RequireAuth permissions={['SHOP_EDITOR']}>
            <AreaPage area="admin" title="dashboard" />
          </RequireAuth>
        ),
        handle: { title: 'titles.dashboard' },
      },
      ...(['transaction-report', 'global-earning-report'] as const).map((path) => ({
        path,
        element: (
          <RequireAuth permissions={['VIEW_REPORT']}>
            <AreaPage area="reports" title={path === 'transaction-report' ? 'transactionReport' : 'globalEarningReport'} />
          </RequireAuth>
        ),
        handle: { title: path === 'transaction-report' ? 'titles.transactionReport' : 'titles.globalEarningReport' },
      })),
      { path: '*', element: <NotFoundPage />, handle: { title: 'titles.notFound' } },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}

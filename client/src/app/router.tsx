import { type ComponentType, lazy, type LazyExoticComponent, type ReactElement, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { matchRoutes, type RouteObject, useLocation, useRoutes } from 'react-router';
import { RootLayout } from './layout/root-layout';
import { RequireAuth } from './require-auth';

/**
 * Routes of spec §2, in react-router's declarative mode (`<BrowserRouter>` + `useRoutes`).
 *
 * Why not the data router (`createBrowserRouter`): its loader/action/fetcher machinery costs
 * about 18 kB gzip on the first page, and this app reads data through TanStack Query and RxDB,
 * not route loaders. Without it, the first visit fits the 130 kB budget (scripts/bench-bundle.ts).
 * What the data router gave is done here instead: pages are `React.lazy` chunks (navigation is
 * a transition, so the old page stays until the new one is ready), titles come from
 * `handle.title` through `matchRoutes`, each route's error boundary sits in the root layout
 * (layout/route-error-boundary), and scroll restoration is layout/use-scroll-restoration.
 */
export type RouteHandle = { title?: string };

/** Every screen is its own chunk, so the first visit downloads only the shell and the home page. */
const HomePage = lazy(() => import('../features/home/components/home-page'));
const AboutPage = lazy(() => import('../features/about/components/about-page'));
const FaqPage = lazy(() => import('../features/faq/components/faq-page'));
const PrivacyPage = lazy(() => import('../features/legal/components/privacy-page'));
const TermsPage = lazy(() => import('../features/legal/components/terms-page'));
const ContactPage = lazy(() => import('../features/contact/components/contact-page'));
const PlanPage = lazy(() => import('../features/plans/components/plan-page'));
const LoginPage = lazy(() => import('../features/auth/components/login-page'));
const ForgotPasswordPage = lazy(() => import('../features/auth/components/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('../features/auth/components/reset-password-page'));
const ProfilePage = lazy(() => import('../features/auth/components/profile-page'));
const ExamIntroPage = lazy(() => import('../features/exams/components/exam-intro-page'));
const ExamResultPage = lazy(() => import('../features/exams/components/exam-result-page'));
const ExamListPage = lazy(() => import('../features/exams/components/exam-list-page'));
const NotFoundPage = lazy(() => import('./not-found-page'));
/** The guarded areas' landing: loaded only once the guard lets the user in. */
const AreaPage = lazy(() => import('./area-page'));
/** TanStack Query's provider, around every screen but the home page (bundle budget). */
const QueryLayout = lazy(() => import('./query-layout'));

const page = (Page: LazyExoticComponent<ComponentType>, title: string): { element: ReactElement; handle: RouteHandle } => ({
  element: <Page />,
  handle: { title },
});

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      // The first visit: kept outside the TanStack Query layout below (bundle budget).
      { index: true, ...page(HomePage, 'titles.home') },
      { path: 'home', ...page(HomePage, 'titles.home') },
      {
        // Every other screen may read server data; TanStack Query's provider comes with them.
        element: <QueryLayout />,
        children: [
          { path: 'about-us', ...page(AboutPage, 'titles.about') },
          { path: 'faq', ...page(FaqPage, 'titles.faq') },
          { path: 'privacy', ...page(PrivacyPage, 'titles.privacy') },
          { path: 'privacypolicy', ...page(PrivacyPage, 'titles.privacy') },
          { path: 'tnc', ...page(TermsPage, 'titles.terms') },
          { path: 'contact', ...page(ContactPage, 'titles.contact') },
          { path: 'plan', ...page(PlanPage, 'titles.plan') },
          { path: 'login/:error?', ...page(LoginPage, 'titles.login') },
          { path: 'forgot-password', ...page(ForgotPasswordPage, 'titles.forgotPassword') },
          { path: 'reset-password', ...page(ResetPasswordPage, 'titles.resetPassword') },
          { path: 'profile', ...page(ProfilePage, 'titles.profile') },

          // Spec §2: take-exam is public; the page asks a guest to log in before a test starts
          // (answers live in the person's own replica). A splat, because the spec's parameter is
          // a JSON string that may contain slashes.
          { path: 'take-exam/*', ...page(ExamIntroPage, 'titles.takeExam') },
          {
            path: 'exam-result/:qsid/:isSubmitAns',
            element: (
              <RequireAuth>
                <ExamResultPage />
              </RequireAuth>
            ),
            handle: { title: 'titles.examResult' },
          },
          {
            path: 'exam-list',
            element: (
              <RequireAuth>
                <ExamListPage />
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
            handle: {
              title: path === 'question-editor' ? 'titles.questionEditor' : path === 'question-list' ? 'titles.questionList' : 'titles.questionSet',
            },
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
        ],
      },
      { path: '*', ...page(NotFoundPage, 'titles.notFound') },
    ],
  },
];

/** Page titles follow the deepest route's `handle.title` (spec §2 Global layout). */
function useRouteTitle() {
  const location = useLocation();
  const { t, i18n } = useTranslation();
  const matches = matchRoutes(routes, location) ?? [];
  const key = [...matches].reverse().map((m) => (m.route.handle as RouteHandle | undefined)?.title).find(Boolean);
  useEffect(() => {
    const app = t('appName');
    document.title = key ? `${t(key as never) as string} | ${app}` : app;
  }, [key, t, i18n.language]);
}

/** The app's routes; rendered inside `<BrowserRouter>` (app/app). */
export function AppRoutes() {
  useRouteTitle();
  return useRoutes(routes);
}

import { type ComponentType, lazy, type LazyExoticComponent, memo, type ReactElement, Suspense, useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { matchRoutes, type RouteObject, UNSAFE_LocationContext as LocationContext, useLocation, useRoutes } from 'react-router';
import { EditorOverListContext } from '../features/authoring/list/editor-over-list';
import { listUnderEditor } from '../features/authoring/list/editor-over-list-state';
import { RootLayout } from './layout/root-layout';
import { RequireAuth } from './require-auth';
import { ROUTE_ACCESS } from '../config/route-access';
import { ADMIN_MENU, type AdminMenuKey } from '../features/admin/lib/menu';
import { PreviewProvider, type Previews } from '../components/preview-context';

/**
 * The app's routes (config/paths.ts), in react-router's declarative mode (`<BrowserRouter>` + `useRoutes`).
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
const PaymentConfirmationPage = lazy(() => import('../features/plans/components/payment-confirmation-page'));
const ReceiptPage = lazy(() => import('../features/plans/components/receipt-page'));
/** The profile's My plan section (docs/payments.md "Receipts"), lent to the auth feature's profile page. */
const MyPlanSection = lazy(() => import('../features/plans/components/my-plan-section'));
const LoginPage = lazy(() => import('../features/auth/components/login-page'));
const ForgotPasswordPage = lazy(() => import('../features/auth/components/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('../features/auth/components/reset-password-page'));
const ProfilePage = lazy(() => import('../features/auth/components/profile-page'));
// docs/charity.md "The referral team": one's own team, information only.
const MyTeamPage = lazy(() => import('../features/auth/components/my-team-page'));
const ExamIntroPage = lazy(() => import('../features/exams/components/exam-intro-page'));
const ExamResultPage = lazy(() => import('../features/exams/components/exam-result-page'));
const ExamListPage = lazy(() => import('../features/exams/components/exam-list-page'));
const MyResultsPage = lazy(() => import('../features/exams/components/my-results-page'));
const NotFoundPage = lazy(() => import('./not-found-page'));
// docs/answer-file.md: uploading a last-resort answer file, public (another device, an invigilator).
const AnswerFilePage = lazy(() => import('../features/answer-file/components/answer-file-page'));
// Mantine's Container is not part of the first page (bundle budget): the frame loads with the screen.
const PageFrame = lazy(() => import('../features/admin/components/page-frame'));
const AdminLayout = lazy(() => import('../features/admin/components/admin-layout'));
const DashboardPage = lazy(() => import('../features/admin/components/dashboard-page'));
const BrandsPage = lazy(() => import('../features/admin/components/brands-page'));
const ActivityLogPage = lazy(() => import('../features/admin/components/activity-log-page'));
const PermissionsPage = lazy(() => import('../features/admin/components/permissions-page'));
const RolesPage = lazy(() => import('../features/admin/components/roles-page'));
const PersonsPage = lazy(() => import('../features/admin/components/persons-page'));
const ProductsPage = lazy(() => import('../features/admin/components/products-page'));
const OrdersPage = lazy(() => import('../features/admin/components/orders-page'));
const UserReportPage = lazy(() => import('../features/admin/components/user-report-page'));
const StaticPagesPage = lazy(() => import('../features/admin/components/static-pages-page'));
const BannersPage = lazy(() => import('../features/admin/components/banners-page'));
const ContactMessagesPage = lazy(() => import('../features/admin/components/contact-messages-page'));
const TransactionReportPage = lazy(() => import('../features/admin/components/transaction-report-page'));
const GlobalEarningReportPage = lazy(() => import('../features/admin/components/global-earning-report-page'));
// Authoring (docs/authoring.md): loaded only once the guard lets an editor in.
const QuestionEditorPage = lazy(() => import('../features/authoring/editor/question-editor-page'));
const QuestionListPage = lazy(() => import('../features/authoring/list/question-list-page'));
const QuestionSetPage = lazy(() => import('../features/authoring/sets/question-set-page'));
const ImportExportPage = lazy(() => import('../features/authoring/import/import-export-page'));
// The charity half (docs/charity.md): public campaigns, donating, the owner's and the trustee's screens.
const CampaignListPage = lazy(() => import('../features/campaigns/components/campaign-list-page'));
const CampaignPage = lazy(() => import('../features/campaigns/components/campaign-page'));
const DonatePage = lazy(() => import('../features/campaigns/components/donate-page'));
const DonationConfirmationPage = lazy(() => import('../features/campaigns/components/donation-confirmation-page'));
const DonationPage = lazy(() => import('../features/campaigns/components/donation-page'));
/** The profile's My donations section (docs/charity.md "API": GET /donation/mine), lent as My plan is. */
const MyDonationsSection = lazy(() => import('../features/campaigns/components/my-donations-section'));
/** The profile's money figures (docs/charity.md "The ledger": tac, aw, taw, paid), lent as My donations is. */
const MyMoneySection = lazy(() => import('../features/campaigns/components/my-money-section'));
const MyCampaignsPage = lazy(() => import('../features/campaigns/components/my-campaigns-page'));
const CampaignEditorPage = lazy(() => import('../features/campaigns/components/campaign-editor-page'));
const TrusteePage = lazy(() => import('../features/campaigns/components/trustee-page'));
// Withdrawals (docs/charity.md "The withdrawal screens"): accounts, the request, the trustees' queue.
const PayoutAccountsPage = lazy(() => import('../features/campaigns/components/payout-accounts-page'));
const WithdrawPage = lazy(() => import('../features/campaigns/components/withdraw-page'));
const WithdrawalsQueuePage = lazy(() => import('../features/campaigns/components/withdrawals-queue-page'));
const AdminCampaignsPage = lazy(() => import('../features/campaigns/components/admin-campaigns-page'));
const AdminTrustsPage = lazy(() => import('../features/campaigns/components/admin-trusts-page'));
const AdminDonationsPage = lazy(() => import('../features/campaigns/components/admin-donations-page'));
// Grievances (docs/charity.md "Grievances"): the raiser's screens, the staff queue, and the profile's way to them.
const GrievancesPage = lazy(() => import('../features/grievances/components/grievances-page'));
const GrievancePage = lazy(() => import('../features/grievances/components/grievance-page'));
const GrievanceQueuePage = lazy(() => import('../features/grievances/components/grievance-queue-page'));
const GrievancesSection = lazy(() => import('../features/grievances/components/grievances-section'));
/** The test screen's previews, lent to authoring (components/preview-context). */
const previews: Previews = {
  QuestionPreview: lazy(() => import('../features/exams/components/question-preview')),
  SetPreview: lazy(() => import('../features/exams/components/set-preview-dialog')),
};
/** TanStack Query's provider, around every screen but the home page (bundle budget). */
const QueryLayout = lazy(() => import('./query-layout'));

function adminPage(key: AdminMenuKey): ReactElement {
  switch (key) {
    case 'dashboard':
      return <DashboardPage />;
    case 'brand':
      return <BrandsPage />;
    case 'activityLog':
      return <ActivityLogPage />;
    case 'permission':
      return <PermissionsPage />;
    case 'role':
      return <RolesPage />;
    case 'person':
      return <PersonsPage />;
    case 'product':
      return <ProductsPage />;
    case 'order':
      return <OrdersPage />;
    case 'userReport':
      return <UserReportPage />;
    case 'staticPages':
      return <StaticPagesPage />;
    case 'banner':
      return <BannersPage />;
    case 'contactMessages':
      return <ContactMessagesPage />;
    case 'campaigns':
      return <AdminCampaignsPage />;
    case 'trusts':
      return <AdminTrustsPage />;
    case 'donations':
      return <AdminDonationsPage />;
  }
}

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
          {
            path: 'profile',
            element: (
              <ProfilePage>
                <Suspense fallback={null}>
                  <MyPlanSection />
                </Suspense>
                <Suspense fallback={null}>
                  <MyMoneySection />
                </Suspense>
                <Suspense fallback={null}>
                  <MyDonationsSection />
                </Suspense>
                <Suspense fallback={null}>
                  <GrievancesSection />
                </Suspense>
              </ProfilePage>
            ),
            handle: { title: 'titles.profile' },
          },
          {
            path: 'profile/team',
            element: (
              <RequireAuth>
                <MyTeamPage />
              </RequireAuth>
            ),
            handle: { title: 'titles.myTeam' },
          },
          // Public; the page itself sends a guest to login (the status check needs the buyer).
          { path: 'payment-confirmation', ...page(PaymentConfirmationPage, 'titles.paymentConfirmation') },
          {
            path: 'receipt/:id',
            element: (
              <RequireAuth access={ROUTE_ACCESS.receipt}>
                <ReceiptPage />
              </RequireAuth>
            ),
            handle: { title: 'plan:receipt.title' },
          },

          // Take-exam is public; a guest takes the free sets in the guest's own replica
          // and signs up or logs in at submit (docs/replication.md "Guests"). A splat, because the spec's
          // parameter is a JSON string that may contain slashes.
          { path: 'take-exam/*', ...page(ExamIntroPage, 'titles.takeExam') },
          {
            path: 'exam-result/:qsid/:isSubmitAns',
            element: (
              <RequireAuth access={ROUTE_ACCESS.examResult}>
                <ExamResultPage />
              </RequireAuth>
            ),
            handle: { title: 'titles.examResult' },
          },
          // docs/exams.md "My results": the learner's own attempts, from the replica.
          {
            path: 'my-results',
            element: (
              <RequireAuth>
                <MyResultsPage />
              </RequireAuth>
            ),
            handle: { title: 'titles.myResults' },
          },
          // Anonymous users may take exams; a guest's list holds the free sets (docs/replication.md "Guests").
          { path: 'exam-list', ...page(ExamListPage, 'titles.examList') },
          // docs/answer-file.md: anyone uploads an answer file; the file proves whose test it is.
          { path: 'answer-file', ...page(AnswerFilePage, 'answer-file:title') },
          // The charity half (docs/charity.md "API"): campaigns are public, and so is donating (a
          // guest gives name, e-mail and mobile with the donation); a donation's page and receipt
          // open for its donor or with its token (the receipt e-mail's link is
          // /donations/:orderId?t=…), which the server checks.
          { path: 'campaigns', ...page(CampaignListPage, 'titles.campaigns') },
          { path: 'campaigns/:id', ...page(CampaignPage, 'titles.campaign') },
          { path: 'campaigns/:id/donate', ...page(DonatePage, 'titles.donate') },
          { path: 'donation-confirmation', ...page(DonationConfirmationPage, 'titles.donationConfirmation') },
          { path: 'donations/:orderId', ...page(DonationPage, 'titles.donationReceipt') },
          ...(
            [
              ['my-campaigns', MyCampaignsPage, 'titles.myCampaigns', ROUTE_ACCESS.myCampaigns],
              ['my-campaigns/new', CampaignEditorPage, 'titles.campaignEditor', ROUTE_ACCESS.myCampaigns],
              ['my-campaigns/:id/edit', CampaignEditorPage, 'titles.campaignEditor', ROUTE_ACCESS.myCampaigns],
              ['my-campaigns/payout-accounts', PayoutAccountsPage, 'titles.payoutAccounts', ROUTE_ACCESS.myCampaigns],
              ['my-campaigns/:id/withdraw', WithdrawPage, 'titles.withdraw', ROUTE_ACCESS.myCampaigns],
              ['trustee', TrusteePage, 'titles.trustee', ROUTE_ACCESS.trustee],
              ['grievances', GrievancesPage, 'titles.grievances', ROUTE_ACCESS.grievances],
              ['grievances/:id', GrievancePage, 'titles.grievance', ROUTE_ACCESS.grievances],
              ['grievance-queue', GrievanceQueuePage, 'titles.grievanceQueue', ROUTE_ACCESS.grievanceQueue],
              ['withdrawals', WithdrawalsQueuePage, 'titles.withdrawals', ROUTE_ACCESS.withdrawals],
            ] as const
          ).map(([path, Page, title, access]) => ({
            path,
            element: (
              <RequireAuth access={access}>
                <Page />
              </RequireAuth>
            ),
            handle: { title },
          })),
          // Authoring (docs/authoring.md): the editor's screens, loaded only on these routes.
          ...(
            [
              ['question-editor', QuestionEditorPage, 'titles.questionEditor', ROUTE_ACCESS.questionEditor],
              ['question-list', QuestionListPage, 'titles.questionList', ROUTE_ACCESS.questionList],
              ['question-set', QuestionSetPage, 'titles.questionSet', ROUTE_ACCESS.questionSet],
              ['question-set/:id', QuestionSetPage, 'titles.questionSet', ROUTE_ACCESS.questionSet],
              ['question-import', ImportExportPage, 'titles.questionImport', ROUTE_ACCESS.questionImport],
            ] as const
          ).map(([path, Page, title, access]) => ({
            path,
            element: (
              <RequireAuth access={access}>
                <PreviewProvider value={previews}>
                  <Page />
                </PreviewProvider>
              </RequireAuth>
            ),
            handle: { title },
          })),
          {
            // The admin route needs SHOP_EDITOR; each child adds its own
            // guard (features/admin/lib/menu, which the side menu follows too).
            path: 'admin',
            element: (
              <RequireAuth access={ROUTE_ACCESS.admin}>
                <Suspense fallback={null}>
                  <AdminLayout />
                </Suspense>
              </RequireAuth>
            ),
            handle: { title: 'titles.admin' },
            children: [
              ...ADMIN_MENU.map((entry) => ({
                ...(entry.path === '' ? { index: true } : { path: entry.path }),
                element: (
                  <RequireAuth access={entry}>
                    {adminPage(entry.key)}
                  </RequireAuth>
                ),
                handle: { title: `admin:menu.${entry.key}` },
              })),
              { path: '*', element: <NotFoundPage />, handle: { title: 'titles.notFound' } },
            ],
          },
          {
            // A /dashboard route (Brands) also exists, outside the admin frame.
            path: 'dashboard',
            element: (
              <RequireAuth access={ROUTE_ACCESS.dashboard}>
                <PageFrame>
                  <DashboardPage />
                </PageFrame>
              </RequireAuth>
            ),
            handle: { title: 'titles.dashboard' },
          },
          {
            path: 'transaction-report',
            element: (
              <RequireAuth access={ROUTE_ACCESS.transactionReport}>
                <PageFrame>
                  <TransactionReportPage />
                </PageFrame>
              </RequireAuth>
            ),
            handle: { title: 'titles.transactionReport' },
          },
          {
            path: 'global-earning-report',
            element: (
              <RequireAuth access={ROUTE_ACCESS.globalEarningReport}>
                <PageFrame>
                  <GlobalEarningReportPage />
                </PageFrame>
              </RequireAuth>
            ),
            handle: { title: 'titles.globalEarningReport' },
          },
        ],
      },
      { path: '*', ...page(NotFoundPage, 'titles.notFound') },
    ],
  },
];

/** Page titles follow the deepest route's `handle.title`. */
function useRouteTitle() {
  const location = useLocation();
  const { t, i18n } = useTranslation();
  // Matched once per address (ranking every route is not free, and this runs on every render).
  const key = useMemo(() => routeTitleKey(location), [location]);
  // A title from a namespace that loads with its page (admin:…) is set again once it has loaded.
  const [loads, setLoads] = useState(0);
  useEffect(() => {
    const onLoaded = () => setLoads((n) => n + 1);
    i18n.on('loaded', onLoaded);
    return () => i18n.off('loaded', onLoaded);
  }, [i18n]);
  useEffect(() => {
    document.title = formatTitle(key, (k) => t(k as never) as string);
  }, [key, t, i18n.language, loads]);
}

/** The title key of the deepest route at `location` that names one. */
export function routeTitleKey(location: string | { pathname: string }): string | undefined {
  return [...(matchRoutes(routes, location) ?? [])]
    .reverse()
    .map((m) => (m.route.handle as RouteHandle | undefined)?.title)
    .find(Boolean);
}

/** A page's title: its route's title, then the app's name. */
export function formatTitle(key: string | undefined, translate: (key: string) => string): string {
  const app = translate('appName');
  return key ? `${translate(key)} | ${app}` : app;
}

/** The route tree, drawn again only when the location it shows changes. */
const RouteTree = memo(function RouteTree() {
  return useRoutes(routes);
});

const sameEntry = (a: { pathname: string; search: string; hash: string; key: string }, b: typeof a) =>
  a.key === b.key && a.pathname === b.pathname && a.search === b.search && a.hash === b.hash;

/**
 * The app's routes; rendered inside `<BrowserRouter>` (app/app).
 *
 * The question list's Edit opens the editor over the list (features/authoring/list/
 * editor-over-list): the address is /question-editor?id=…, but the routes go on showing the list
 * entry it came from, and the list page draws the editor over itself. The routes see the same
 * location object as before (same entry, same object), so opening and closing the editor do not
 * redraw the list; the page title follows the real address.
 */
export function AppRoutes() {
  useRouteTitle();
  const real = useContext(LocationContext);
  const under = listUnderEditor(real.location);
  const shown = under ? { location: under, navigationType: real.navigationType } : real;
  const [kept, setKept] = useState(shown);
  const current = sameEntry(kept.location, shown.location) ? kept : shown;
  if (current !== kept) setKept(current);
  return (
    <EditorOverListContext.Provider value={under ? real.location : null}>
      <LocationContext.Provider value={current}>
        <RouteTree />
      </LocationContext.Provider>
    </EditorOverListContext.Provider>
  );
}

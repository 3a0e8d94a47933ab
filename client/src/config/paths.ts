/** Every route of the app, in one place. */
export const paths = {
  home: '/',
  homeAlias: '/home',
  about: '/about-us',
  faq: '/faq',
  privacy: '/privacy',
  privacyAlias: '/privacypolicy',
  terms: '/tnc',
  contact: '/contact',
  plan: '/plan',
  paymentConfirmation: '/payment-confirmation',
  receipt: '/receipt',
  takeExam: '/take-exam',
  login: '/login',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  profile: '/profile',
  /** My team: one's referral team, information only (docs/charity.md "The referral team"). */
  profileTeam: '/profile/team',
  examList: '/exam-list',
  examResult: '/exam-result',
  myResults: '/my-results',
  answerFile: '/answer-file',
  questionEditor: '/question-editor',
  questionList: '/question-list',
  questionImport: '/question-import',
  questionSet: '/question-set',
  admin: '/admin',
  dashboard: '/dashboard',
  transactionReport: '/transaction-report',
  globalEarningReport: '/global-earning-report',
  // The charity half (docs/charity.md).
  campaigns: '/campaigns',
  myCampaigns: '/my-campaigns',
  trustee: '/trustee',
  /** The trustees' withdrawal queue (docs/charity.md "The withdrawal screens"). */
  withdrawals: '/withdrawals',
  donationConfirmation: '/donation-confirmation',
  /** A donation's page (status and receipt): the receipt e-mail's link is /donations/:orderId?t=<token>. */
  donations: '/donations',
  /** The signed-in person's grievances (docs/charity.md "Grievances"): raise, list, each one's thread. */
  grievances: '/grievances',
  /** The staff's grievance queue (HANDLE_GRIEVANCE). */
  grievanceQueue: '/grievance-queue',
} as const;

/** What a grievance may be about (docs/charity.md "Grievances"). */
export type GrievanceSubjectParam = 'DONATION' | 'CAMPAIGN' | 'WITHDRAWAL' | 'ACCOUNT' | 'OTHER';

/** The grievance form, its subject filled in ("Raise a grievance" on a donation's or a campaign's page). */
export const raiseGrievancePath = (subject: GrievanceSubjectParam, id?: string) =>
  `${paths.grievances}?${new URLSearchParams({ subject, ...(id ? { id } : {}) }).toString()}`;

/** Shown in the drawer and the footer. */
export const APP_VERSION = '1.0.7';

/** Copyright contact address of the terms (docs/configuration.md "Terms and the trust's account"); set VITE_COPYRIGHT_EMAIL to change. */
export const COPYRIGHT_EMAIL: string = import.meta.env.VITE_COPYRIGHT_EMAIL ?? 'copyright@parikshamitra.example';

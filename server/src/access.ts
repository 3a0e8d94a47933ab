import type { PermissionName } from '../../sync-protocol/src/permission';

/**
 * Who may call what: the one table of the server's authorisation (issue 2 §8).
 * - `public`: anyone; a token, if sent, is ignored.
 * - `optional`: anyone; a token, if sent, must be valid.
 * - `login`: a valid token.
 * - a list: a valid token and every listed permission (spec §6).
 * Registering a route that is missing here fails at start-up (see lib/route.ts).
 */
export type Access = 'public' | 'optional' | 'login' | readonly PermissionName[];

export const ACCESS = {
  'GET /health': 'public',
  // Browsers send Content-Security-Policy violation reports without credentials (issue 16 §7).
  'POST /csp-report': 'public',

  // Auth (spec §7)
  'POST /UserLogin/login': 'public',
  'POST /UserLogin': 'public',
  'POST /UserLogin/createUserOnBehalf': 'login',
  'POST /UserLogin/resetPassword': 'public',
  'POST /UserLogin/updatePasswordWithResetCode': 'public',
  'PATCH /UserLogin/updatePasswordWithOldPassword': 'login',
  // Issue 16 §4: end this session, or every session of the person.
  'POST /UserLogin/logout': 'login',
  'POST /UserLogin/logoutAll': 'login',
  // The terms each person accepts (docs/api.md "Terms"): their own state and acceptance.
  'GET /UserLogin/terms': 'login',
  'POST /UserLogin/acceptTerms': 'login',
  'PUT /UserLogin/resetUserPasswordByAdmin': ['UPDATE_PERSON'],
  'POST /OTP/requestOTP': 'public',
  'POST /OTP/verifyOTPAndSignIn': 'public',

  // Person (spec §7); the signup form looks referrers up before an account exists.
  'GET /Person': 'login',
  // One's own name and e-mail (docs/api.md "Profile"): the signed-in person only, no id taken.
  'PATCH /Person/me': 'login',
  'POST /Person/me/email': 'login',
  'POST /Person/me/email/verify': 'login',
  'GET /Person/get': ['UPDATE_PERSON'],
  'GET /Person/getReferrer': 'public',
  'GET /Person/queryCustomers': ['UPDATE_PERSON'],
  'GET /Person/getTotalCustomers': ['UPDATE_PERSON'],
  'GET /Person/:id': ['UPDATE_PERSON'],
  'POST /Person': ['CREATE_PERSON'],
  'PUT /Person': ['UPDATE_PERSON'],
  'PATCH /Person/updatePermissionCollection': ['UPDATE_PERSON'],
  'DELETE /Person/:id': ['DELETE_PERSON'],

  // Permission and role: the screens need only a login (spec §2); changes need permissions.
  'GET /permission': 'login',
  'POST /permission': ['CREATE_PERMISSION'],
  'PUT /permission': ['UPDATE_PERMISSION'],
  'DELETE /permission/:id': ['DELETE_PERMISSION'],
  'GET /role': 'login',
  'POST /role': ['CREATE_ROLE'],
  'PUT /role': ['UPDATE_ROLE'],
  'PUT /role/updatePermissionCollection': ['UPDATE_ROLE'],
  'DELETE /role/:id': ['DELETE_ROLE'],

  // Activity log: the admin activity-log route needs SHOP_EDITOR (spec §2).
  'GET /getActivityLog': ['SHOP_EDITOR'],
  'GET /getActivityLog/count': ['SHOP_EDITOR'],

  // Brands (spec §2 admin '' route).
  'GET /brand': ['SHOP_EDITOR'],
  'POST /brand': ['CREATE_BRAND'],
  'PUT /brand': ['UPDATE_BRAND'],
  'DELETE /brand/:id': ['DELETE_BRAND'],

  // Reports (spec §7 getOrdersByDate; the rest are ours, issue 6) and the admin order list.
  'GET /report/getOrdersByDate': ['VIEW_REPORT'],
  'GET /report/getUsersByDate': ['VIEW_REPORT'],
  'GET /report/transactions': ['VIEW_REPORT'],
  'GET /report/globalEarnings': ['VIEW_REPORT'],
  'GET /order': ['SHOP_EDITOR'],
  'PATCH /order/status': ['UPDATE_ORDER'],

  // Products (the plans), static pages, home banners, contact messages (issue 6). The public
  // site reads pages and active banners without a login.
  'GET /product': ['SHOP_EDITOR'],
  'POST /product': ['SHOP_EDITOR'],
  'PUT /product': ['SHOP_EDITOR'],
  'DELETE /product/:id': ['SHOP_EDITOR'],
  'GET /static-page': ['SHOP_EDITOR'],
  'PUT /static-page': ['SHOP_EDITOR'],
  // docs/admin.md, Static pages: each language's versions, and restoring one.
  'GET /static-page/:key/versions': ['SHOP_EDITOR'],
  'POST /static-page/restore': ['SHOP_EDITOR'],
  'GET /static-page/:key': 'public',
  'GET /banner/all': ['SHOP_EDITOR'],
  'GET /banner': 'public',
  'POST /banner': ['SHOP_EDITOR'],
  'PUT /banner': ['SHOP_EDITOR'],
  'DELETE /banner/:id': ['SHOP_EDITOR'],
  'GET /generic/contact-messages': ['SHOP_EDITOR'],
  'DELETE /generic/contact-messages/:id': ['SHOP_EDITOR'],

  // Tags: read by everyone (the exam runs for guests too), written by editors.
  'GET /tag': 'optional',
  'PATCH /tag': ['QUESTION_EDITOR'],
  'GET /tag/getRecentlyUpdatedTags': 'optional',

  // Generic
  'POST /generic/submit-contact-details': 'optional',
  // Issue 20 §6: the device's Web Push subscription on the spec's path (PATCH), and its removal.
  'PATCH /generic/update-firebase-token': 'login',
  'DELETE /generic/update-firebase-token': 'login',
  // The VAPID public key devices subscribe with: public, like any application server key.
  'GET /push/public-key': 'public',

  // Issue 21 §5: the last-resort answer file. The key devices encrypt to is public; a file is
  // uploaded by whoever holds it (another device, an invigilator) and proves whose it is itself.
  'GET /answer-file/key': 'public',
  'POST /answer-file': 'public',

  // Questions and question sets (spec §7, {question} = /question): editors read and write them.
  // Learners and guests (spec §6: anonymous users may take exams) may read what replication gives
  // a device: published sets, and the questions of published sets by id, without the correct
  // answers of mock tests (the services decide what an "optional" caller sees). Hono tries routes
  // in registration order, so results/routes and the static /question/… paths are registered
  // before /question/:id.
  'GET /question/getQuestionsCount': ['QUESTION_EDITOR'],
  // Issue 17: review, history and restore of questions; a set's preview (drafts included).
  'PATCH /question/updateStatus': ['QUESTION_EDITOR'],
  'GET /question/getQuestionHistory/:id': ['QUESTION_EDITOR'],
  'POST /question/restoreQuestionVersion': ['QUESTION_EDITOR'],
  'GET /question/previewQuestionSet/:id': ['QUESTION_EDITOR'],
  // Images of questions (issue 17 §2): uploaded by editors; served as static files under /media.
  'POST /media': ['QUESTION_EDITOR'],
  'GET /question/getQuestionSetList': 'optional',
  'GET /question/getQuestionSet/:id': 'optional',
  'PATCH /question/updateQuestionSet': ['QUESTION_EDITOR'],
  'PATCH /question/unpublishQuestionSet': ['QUESTION_EDITOR'],
  'DELETE /question/deleteQuestionSet/:id': ['QUESTION_EDITOR'],
  'GET /question': 'optional',
  'GET /question/:id': 'optional',
  'POST /question': ['QUESTION_EDITOR'],
  'PATCH /question': ['QUESTION_EDITOR'],
  'DELETE /question/:id': ['QUESTION_EDITOR'],
  // Issue 19 §3–4: import (preview, then store) and export of questions, editors only.
  'POST /question/import/preview': ['QUESTION_EDITOR'],
  'POST /question/import': ['QUESTION_EDITOR'],
  'GET /question/import/template.csv': ['QUESTION_EDITOR'],
  'GET /question/export': ['QUESTION_EDITOR'],
  // Issue 19 §1: machine translation, for editors only (it writes, and a real endpoint costs money).
  'GET /question/generateInDiffLang': ['QUESTION_EDITOR'],
  'POST /ai/translateQuestionInHtml': ['QUESTION_EDITOR'],
  'GET /ai/translator': ['QUESTION_EDITOR'],

  // Results: a signed-in learner submits and reads only their own (spec §6: exam result needs a
  // login); an editor evaluates subjective answers. The participants count is polled in a test.
  'POST /question/submitUserResponse': 'login',
  'GET /question/getExamResult': 'login',
  'GET /question/getRank': 'login',
  'GET /question/getPendingEvaluations': ['QUESTION_EDITOR'],
  'PATCH /question/evaluate': ['QUESTION_EDITOR'],
  'GET /generic/getParticipantsCount': 'login',

  // Plans (spec §9) are public.
  'GET /plan': 'public',

  // Replication (ARCHITECTURE decision 2): a signed-in person's own replica. Which rows a
  // person may read or write is decided per collection in modules/sync.
  'GET /sync/v1/stream': 'login',
  // Guests pull tags and the free sets (issue 20 §3); everything else needs a login (sync.service).
  'GET /sync/v1/:collection/pull': 'optional',
  'POST /sync/v1/:collection/push': 'login',

  // Issue 18: plans and payments (spec §7 Payments). Webhooks are public and verified by signature.
  'POST /payment': 'login',
  'POST /payment/createDummyOrder': 'login',
  'GET /payment/checkPayment': 'login',
  'POST /payment/verifyRazorpayPayment': 'login',
  'POST /payment/retryPayment': 'login',
  'GET /payment/my': 'login',
  'GET /payment/receipt/:id': 'login',
  'POST /phonepe/initiatePayment': 'login',
  'POST /phonepe/checkPaymentStatus': 'login',
  'POST /phonepe/webhook': 'public',
  'POST /razorpay/initiatePayment': 'login',
  'POST /razorpay/checkPaymentStatus': 'login',
  'POST /razorpay/webhook': 'public',
} as const satisfies Record<string, Access>;

export type RouteKey = keyof typeof ACCESS;

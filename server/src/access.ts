import type { PermissionName } from '@pm/protocol/permission';

/**
 * Who may call what: the one table of the server's authorisation (docs/api.md).
 * - `public`: anyone; a token, if sent, is ignored.
 * - `optional`: anyone; a token, if sent, must be valid.
 * - `login`: a valid token.
 * - a list: a valid token and every listed permission (docs/api.md).
 * Registering a route that is missing here fails at start-up (see lib/route.ts).
 */
export type Access = 'public' | 'optional' | 'login' | readonly PermissionName[];

export const ACCESS = {
  'GET /health': 'public',
  // Browsers send Content-Security-Policy violation reports without credentials (docs/security.md "Headers, CSP and links").
  'POST /csp-report': 'public',

  // Auth (docs/api.md)
  'POST /UserLogin/login': 'public',
  'POST /UserLogin': 'public',
  'POST /UserLogin/createUserOnBehalf': 'login',
  'POST /UserLogin/resetPassword': 'public',
  'POST /UserLogin/updatePasswordWithResetCode': 'public',
  'PATCH /UserLogin/updatePasswordWithOldPassword': 'login',
  // End this session, or every session of the person (docs/security.md "Sessions and logout").
  'POST /UserLogin/logout': 'login',
  'POST /UserLogin/logoutAll': 'login',
  // The terms each person accepts (docs/api.md "Terms"): their own state and acceptance.
  'GET /UserLogin/terms': 'login',
  'POST /UserLogin/acceptTerms': 'login',
  'PUT /UserLogin/resetUserPasswordByAdmin': ['UPDATE_PERSON'],
  'POST /OTP/requestOTP': 'public',
  'POST /OTP/verifyOTPAndSignIn': 'public',

  // Person (docs/api.md); the signup form looks referrers up before an account exists.
  'GET /Person': 'login',
  // One's own name and e-mail (docs/api.md "Profile"): the signed-in person only, no id taken.
  'PATCH /Person/me': 'login',
  'POST /Person/me/email': 'login',
  'POST /Person/me/email/verify': 'login',
  // One's own mobile verified by a code (docs/sms.md "Every code by SMS"): no id taken.
  'POST /Person/me/mobile/code': 'login',
  'POST /Person/me/mobile/verify': 'login',
  // One's own referral team, information only (docs/charity.md "The referral team"): no id taken.
  'GET /person/team': 'login',
  'GET /Person/get': ['UPDATE_PERSON'],
  'GET /Person/getReferrer': 'public',
  'GET /Person/queryCustomers': ['UPDATE_PERSON'],
  'GET /Person/getTotalCustomers': ['UPDATE_PERSON'],
  'GET /Person/:id': ['UPDATE_PERSON'],
  'POST /Person': ['CREATE_PERSON'],
  'PUT /Person': ['UPDATE_PERSON'],
  'PATCH /Person/updatePermissionCollection': ['UPDATE_PERSON'],
  'DELETE /Person/:id': ['DELETE_PERSON'],

  // Permission and role: the screens need only a login (docs/admin.md "Who sees what"); changes need permissions.
  'GET /permission': 'login',
  'POST /permission': ['CREATE_PERMISSION'],
  'PUT /permission': ['UPDATE_PERMISSION'],
  'DELETE /permission/:id': ['DELETE_PERMISSION'],
  'GET /role': 'login',
  'POST /role': ['CREATE_ROLE'],
  'PUT /role': ['UPDATE_ROLE'],
  'PUT /role/updatePermissionCollection': ['UPDATE_ROLE'],
  'DELETE /role/:id': ['DELETE_ROLE'],

  // Activity log: the admin activity-log route needs SHOP_EDITOR (docs/admin.md).
  'GET /getActivityLog': ['SHOP_EDITOR'],
  'GET /getActivityLog/count': ['SHOP_EDITOR'],

  // Brands (docs/admin.md).
  'GET /brand': ['SHOP_EDITOR'],
  'POST /brand': ['CREATE_BRAND'],
  'PUT /brand': ['UPDATE_BRAND'],
  'DELETE /brand/:id': ['DELETE_BRAND'],

  // Reports (getOrdersByDate, and ours: docs/admin.md) and the admin order list.
  'GET /report/getOrdersByDate': ['VIEW_REPORT'],
  'GET /report/getUsersByDate': ['VIEW_REPORT'],
  'GET /report/transactions': ['VIEW_REPORT'],
  'GET /report/globalEarnings': ['VIEW_REPORT'],
  'GET /order': ['SHOP_EDITOR'],
  'PATCH /order/status': ['UPDATE_ORDER'],

  // Products (the plans), static pages, home banners, contact messages (docs/admin.md). The public
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
  // The device's Web Push subscription on the spec's path (PATCH), and its removal (docs/configuration.md "Push messages (Web Push)").
  'PATCH /generic/update-firebase-token': 'login',
  'DELETE /generic/update-firebase-token': 'login',
  // The VAPID public key devices subscribe with: public, like any application server key.
  'GET /push/public-key': 'public',

  // The last-resort answer file (docs/answer-file.md). The key devices encrypt to is public; a file is
  // uploaded by whoever holds it (another device, an invigilator) and proves whose it is itself.
  'GET /answer-file/key': 'public',
  'POST /answer-file': 'public',
  // Tests handed from phone to phone (docs/live-tests.md "A test handed from phone to phone"): the keys
  // bundles are checked with are public; a bundle is made for a signed-in person who may take the set.
  'GET /bundle/v1/keys': 'public',
  'GET /bundle/v1/sets/:id': 'login',
  // Answers by SMS (docs/sms.md "The key"): the SMS key of the caller's own session.
  'GET /sms-answers/key': 'login',

  // Questions and question sets (docs/exams.md, {question} = /question): editors read and write them.
  // Learners and guests (docs/replication.md "Guests": anonymous users may take exams) may read what replication gives
  // a device: published sets, and the questions of published sets by id, without the correct
  // answers of mock tests (the services decide what an "optional" caller sees). Hono tries routes
  // in registration order, so results/routes and the static /question/… paths are registered
  // before /question/:id.
  'GET /question/getQuestionsCount': ['QUESTION_EDITOR'],
  // Review, history and restore of questions; a set's preview (drafts included; docs/authoring.md).
  'PATCH /question/updateStatus': ['QUESTION_EDITOR'],
  'GET /question/getQuestionHistory/:id': ['QUESTION_EDITOR'],
  'POST /question/restoreQuestionVersion': ['QUESTION_EDITOR'],
  'GET /question/previewQuestionSet/:id': ['QUESTION_EDITOR'],
  // Images of questions (docs/authoring.md): uploaded by editors; served as static files under /media.
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
  // Import (preview, then store) and export of questions, editors only (docs/authoring.md "Import and export").
  'POST /question/import/preview': ['QUESTION_EDITOR'],
  'POST /question/import': ['QUESTION_EDITOR'],
  'GET /question/import/template.csv': ['QUESTION_EDITOR'],
  'GET /question/export': ['QUESTION_EDITOR'],
  // Machine translation (docs/configuration.md "Machine translation"), for editors only (it writes, and a real endpoint costs money).
  'GET /question/generateInDiffLang': ['QUESTION_EDITOR'],
  'POST /ai/translateQuestionInHtml': ['QUESTION_EDITOR'],
  'GET /ai/translator': ['QUESTION_EDITOR'],

  // Results: a signed-in learner submits and reads only their own (docs/exams.md: exam result needs a
  // login); an editor evaluates subjective answers. The participants count is polled in a test.
  'POST /question/submitUserResponse': 'login',
  'GET /question/getExamResult': 'login',
  'GET /question/getRank': 'login',
  'GET /question/getPendingEvaluations': ['QUESTION_EDITOR'],
  'PATCH /question/evaluate': ['QUESTION_EDITOR'],
  'GET /generic/getParticipantsCount': 'login',

  // Plans (docs/payments.md) are public.
  'GET /plan': 'public',

  // Replication (ARCHITECTURE decision 2): a signed-in person's own replica. Which rows a
  // person may read or write is decided per collection in modules/sync.
  // Live tests (docs/live-tests.md): editors schedule, learners list and register.
  'PUT /live/schedule': ['QUESTION_EDITOR'],
  'GET /live/tests': 'login',
  'POST /live/register': 'login',
  'GET /sync/v1/stream': 'login',
  // Guests pull tags and the free sets (docs/replication.md "Guests"); everything else needs a login (sync.service).
  'GET /sync/v1/:collection/pull': 'optional',
  'POST /sync/v1/:collection/push': 'login',

  // Campaigns (docs/charity.md "API"). Anyone reads public campaigns; a token, if sent, lets the owner,
  // staff and trustees read a draft (campaign-access.ts decides per campaign, and 404s everyone else).
  // Any signed-in person drafts their own; staff (CREATE_CAMPAIGN) act for beneficiaries; trustees
  // (APPROVE_CAMPAIGN) make the moves of campaigns.machine.ts.
  // Donations (docs/charity.md "API"): a guest may give; the donation's own routes check its
  // donor or its link's token (donations.service.ts).
  // Trusts (docs/charity.md "Trusts"): their receipts' details and the share they keep.
  'GET /trust': ['MANAGE_TRUST'],
  'POST /trust': ['MANAGE_TRUST'],
  'PUT /trust/:id': ['MANAGE_TRUST'],
  'GET /donation/quote': 'public',
  'POST /donation': 'optional',
  'GET /donation/mine': 'login',
  'GET /donation/list': ['VIEW_REPORT'],
  'GET /donation/export': ['VIEW_REPORT'],
  'GET /donation/foreign-summary': ['VIEW_REPORT'],
  'GET /donation/:orderId': 'optional',
  'POST /donation/:orderId/pay': 'optional',
  'GET /donation/:orderId/receipt': 'optional',
  // Paying back a double debit (docs/charity.md "Moderation"): who may change orders' payments.
  'POST /donation/:orderId/refund-due': ['UPDATE_ORDER'],
  'GET /campaigns': 'public',
  'GET /campaigns/:id': 'optional',
  'GET /campaign/mine': 'login',
  'GET /campaign/queue': ['APPROVE_CAMPAIGN'],
  'GET /campaign/featured': 'public',
  'PUT /campaign/featured': ['CREATE_CAMPAIGN'],
  'POST /campaign': 'login',
  'PATCH /campaign/:id': 'login',
  'POST /campaign/:id/images': 'login',
  'POST /campaign/:id/submit': 'login',
  'POST /campaign/:id/approve': ['APPROVE_CAMPAIGN'],
  'POST /campaign/:id/refuse': ['APPROVE_CAMPAIGN'],
  'POST /campaign/:id/pause': ['APPROVE_CAMPAIGN'],
  'POST /campaign/:id/resume': ['APPROVE_CAMPAIGN'],
  'POST /campaign/:id/close': ['APPROVE_CAMPAIGN'],
  'POST /campaign/:id/updates': 'login',
  // Grievances (docs/charity.md "Grievances"): any signed-in person raises one and reads their own
  // (grievances.service.ts 404s anyone but the raiser and staff); staff (HANDLE_GRIEVANCE) work the
  // queue. Anyone, guests too, reports a campaign; the answer never says whether it exists.
  'POST /grievance': 'login',
  'GET /grievance/mine': 'login',
  'GET /grievance/queue': ['HANDLE_GRIEVANCE'],
  'GET /grievance/handlers': ['HANDLE_GRIEVANCE'],
  'GET /grievance/:id': 'login',
  'POST /grievance/:id/messages': 'login',
  'POST /grievance/:id/reopen': 'login',
  'POST /grievance/:id/assign': ['HANDLE_GRIEVANCE'],
  'POST /grievance/:id/resolve': ['HANDLE_GRIEVANCE'],
  'POST /campaign/:id/report': 'optional',

  // Payout accounts and withdrawals (docs/charity.md "Payout accounts", "Withdrawals"): anyone signed
  // in keeps their own accounts; which campaign's payees, withdrawable money and withdrawals a caller
  // reads is decided per campaign (its owner, staff, trustees: payout-access.ts); staff
  // (CREATE_CAMPAIGN) add supplier payees; holders of APPROVE_WITHDRAWAL approve, reject, check and
  // retry. The payout webhook is public and verified by its signature.
  'GET /payout-account/mine': 'login',
  'POST /payout-account': 'login',
  'DELETE /payout-account/:id': 'login',
  'GET /campaign/:id/payees': 'login',
  'POST /campaign/:id/payees': ['CREATE_CAMPAIGN'],
  'GET /campaign/:id/withdrawable': 'login',
  'GET /campaign/:id/withdrawals': 'login',
  'POST /campaign/:id/withdrawals': 'login',
  'GET /withdrawal/mine': 'login',
  'GET /withdrawal/queue': ['APPROVE_WITHDRAWAL'],
  'GET /withdrawal/:id': 'login',
  'POST /withdrawal/:id/approve': ['APPROVE_WITHDRAWAL'],
  'POST /withdrawal/:id/reject': ['APPROVE_WITHDRAWAL'],
  'POST /withdrawal/:id/cancel': 'login',
  'POST /withdrawal/:id/check': ['APPROVE_WITHDRAWAL'],
  'POST /withdrawal/:id/retry': ['APPROVE_WITHDRAWAL'],
  'POST /webhook/razorpayx': 'public',
  // The SMS providers' callbacks (docs/sms.md): public, each checked by its provider's signature
  // (Twilio) or the secret token in its address (MSG91); a forged one is refused and changes nothing.
  'POST /sms/twilio/status': 'public',
  'POST /sms/twilio/inbound': 'public',
  'POST /sms/msg91/report': 'public',
  'POST /sms/msg91/inbound': 'public',

  // Plans and payments (docs/payments.md). Webhooks are public and verified by signature.
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

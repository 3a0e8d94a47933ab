import * as lite from './schema-sqlite';

/*
 * The tables every module imports (`from '../db/schema'`). They are defined once, in
 * schema-sqlite.ts (ARCHITECTURE decision 7); on SQLite these are those tables, on PostgreSQL the
 * ones schema-pg.ts derives from them, swapped in by usePostgresTables before the server's first
 * query. The exports are live bindings, so every module sees the swap; their TypeScript types
 * stay the SQLite tables', which have the same columns and row types (db/schema-parity.test.ts).
 */

export type { SectionRow } from './schema-sqlite';

export let revisionCounter = lite.revisionCounter;
export let meta = lite.meta;
export let role = lite.role;
export let permission = lite.permission;
export let rolePermission = lite.rolePermission;
export let person = lite.person;
export let personPermission = lite.personPermission;
export let activityLog = lite.activityLog;
export let tag = lite.tag;
export let question = lite.question;
export let questionVersion = lite.questionVersion;
export let questionSearch = lite.questionSearch;
export let questionImport = lite.questionImport;
export let questionImportRow = lite.questionImportRow;
export let questionTag = lite.questionTag;
export let questionSet = lite.questionSet;
export let questionSetVersion = lite.questionSetVersion;
export let attempt = lite.attempt;
export let examResult = lite.examResult;
export let scoreDist = lite.scoreDist;
export let plan = lite.plan;
export let purchaseOrder = lite.purchaseOrder;
export let payment = lite.payment;
export let paymentEvent = lite.paymentEvent;
export let ledgerEntry = lite.ledgerEntry;
export let entitlement = lite.entitlement;
export let entitlementUse = lite.entitlementUse;
export let entitlementState = lite.entitlementState;
export let contactMessage = lite.contactMessage;
export let brand = lite.brand;
export let staticPage = lite.staticPage;
export let staticPageVersion = lite.staticPageVersion;
export let banner = lite.banner;
export let oneTimeCode = lite.oneTimeCode;
export let outbox = lite.outbox;
export let smsInbound = lite.smsInbound;
export let session = lite.session;
export let pushSubscription = lite.pushSubscription;
export let pushOnce = lite.pushOnce;
export let rateLimit = lite.rateLimit;
export let trust = lite.trust;
export let campaign = lite.campaign;
export let campaignUpdate = lite.campaignUpdate;
export let campaignImage = lite.campaignImage;
export let campaignEvent = lite.campaignEvent;
export let donation = lite.donation;
export let payoutAccount = lite.payoutAccount;
export let withdrawal = lite.withdrawal;
export let withdrawalApproval = lite.withdrawalApproval;
export let withdrawalEvent = lite.withdrawalEvent;
export let grievance = lite.grievance;
export let grievanceMessage = lite.grievanceMessage;
export let smsAnswer = lite.smsAnswer;
export let liveTest = lite.liveTest;
export let liveRegistration = lite.liveRegistration;

/** Which tables the exports are: what the process opened (db/client.ts), one engine per process. */
export let tablesEngine: 'sqlite' | 'postgres' = 'sqlite';

/** Points every table export at its PostgreSQL table. */
export function usePostgresTables(pg: Record<string, unknown>): void {
  const take = <T>(name: string): T => {
    const t = pg[name];
    if (!t) throw new Error(`schema: no PostgreSQL table for ${name}`);
    return t as T;
  };
  revisionCounter = take<typeof lite.revisionCounter>('revisionCounter');
  meta = take<typeof lite.meta>('meta');
  role = take<typeof lite.role>('role');
  permission = take<typeof lite.permission>('permission');
  rolePermission = take<typeof lite.rolePermission>('rolePermission');
  person = take<typeof lite.person>('person');
  personPermission = take<typeof lite.personPermission>('personPermission');
  activityLog = take<typeof lite.activityLog>('activityLog');
  tag = take<typeof lite.tag>('tag');
  question = take<typeof lite.question>('question');
  questionVersion = take<typeof lite.questionVersion>('questionVersion');
  questionSearch = take<typeof lite.questionSearch>('questionSearch');
  questionImport = take<typeof lite.questionImport>('questionImport');
  questionImportRow = take<typeof lite.questionImportRow>('questionImportRow');
  questionTag = take<typeof lite.questionTag>('questionTag');
  questionSet = take<typeof lite.questionSet>('questionSet');
  questionSetVersion = take<typeof lite.questionSetVersion>('questionSetVersion');
  attempt = take<typeof lite.attempt>('attempt');
  examResult = take<typeof lite.examResult>('examResult');
  scoreDist = take<typeof lite.scoreDist>('scoreDist');
  plan = take<typeof lite.plan>('plan');
  purchaseOrder = take<typeof lite.purchaseOrder>('purchaseOrder');
  payment = take<typeof lite.payment>('payment');
  paymentEvent = take<typeof lite.paymentEvent>('paymentEvent');
  ledgerEntry = take<typeof lite.ledgerEntry>('ledgerEntry');
  entitlement = take<typeof lite.entitlement>('entitlement');
  entitlementUse = take<typeof lite.entitlementUse>('entitlementUse');
  entitlementState = take<typeof lite.entitlementState>('entitlementState');
  contactMessage = take<typeof lite.contactMessage>('contactMessage');
  brand = take<typeof lite.brand>('brand');
  staticPage = take<typeof lite.staticPage>('staticPage');
  staticPageVersion = take<typeof lite.staticPageVersion>('staticPageVersion');
  banner = take<typeof lite.banner>('banner');
  oneTimeCode = take<typeof lite.oneTimeCode>('oneTimeCode');
  outbox = take<typeof lite.outbox>('outbox');
  smsInbound = take<typeof lite.smsInbound>('smsInbound');
  session = take<typeof lite.session>('session');
  pushSubscription = take<typeof lite.pushSubscription>('pushSubscription');
  pushOnce = take<typeof lite.pushOnce>('pushOnce');
  rateLimit = take<typeof lite.rateLimit>('rateLimit');
  trust = take<typeof lite.trust>('trust');
  campaign = take<typeof lite.campaign>('campaign');
  campaignUpdate = take<typeof lite.campaignUpdate>('campaignUpdate');
  campaignImage = take<typeof lite.campaignImage>('campaignImage');
  campaignEvent = take<typeof lite.campaignEvent>('campaignEvent');
  donation = take<typeof lite.donation>('donation');
  payoutAccount = take<typeof lite.payoutAccount>('payoutAccount');
  withdrawal = take<typeof lite.withdrawal>('withdrawal');
  withdrawalApproval = take<typeof lite.withdrawalApproval>('withdrawalApproval');
  withdrawalEvent = take<typeof lite.withdrawalEvent>('withdrawalEvent');
  grievance = take<typeof lite.grievance>('grievance');
  grievanceMessage = take<typeof lite.grievanceMessage>('grievanceMessage');
  smsAnswer = take<typeof lite.smsAnswer>('smsAnswer');
  liveTest = take<typeof lite.liveTest>('liveTest');
  liveRegistration = take<typeof lite.liveRegistration>('liveRegistration');
  tablesEngine = 'postgres';
}

import 'i18next';
import type about from '../locales/en/about.json';
import type admin from '../locales/en/admin.json';
import type adminAccess from '../locales/en/admin-access.json';
import type adminContent from '../locales/en/admin-content.json';
import type adminDashboard from '../locales/en/admin-dashboard.json';
import type adminShop from '../locales/en/admin-shop.json';
import type adminUsers from '../locales/en/admin-users.json';
import type answerFile from '../locales/en/answer-file.json';
import type auth from '../locales/en/auth.json';
import type campaign from '../locales/en/campaign.json';
import type authoringBank from '../locales/en/authoring-bank.json';
import type authoringEditor from '../locales/en/authoring-editor.json';
import type authoringImport from '../locales/en/authoring-import.json';
import type common from '../locales/en/common.json';
import type contact from '../locales/en/contact.json';
import type exam from '../locales/en/exam.json';
import type grievance from '../locales/en/grievance.json';
import type examIntegrity from '../locales/en/exam-integrity.json';
import type faq from '../locales/en/faq.json';
import type home from '../locales/en/home.json';
import type legal from '../locales/en/legal.json';
import type messages from '../locales/en/messages.json';
import type payout from '../locales/en/payout.json';
import type plan from '../locales/en/plan.json';
import type push from '../locales/en/push.json';
import type receipt from '../locales/en/receipt.json';

/** Keys are typed from the English resources (CONVENTIONS rule 8). */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      common: typeof common;
      messages: typeof messages;
      auth: typeof auth;
      home: typeof home;
      about: typeof about;
      faq: typeof faq;
      legal: typeof legal;
      contact: typeof contact;
      plan: typeof plan;
      push: typeof push;
      exam: typeof exam;
      receipt: typeof receipt;
      'exam-integrity': typeof examIntegrity;
      admin: typeof admin;
      'admin-access': typeof adminAccess;
      'admin-users': typeof adminUsers;
      'admin-dashboard': typeof adminDashboard;
      'admin-shop': typeof adminShop;
      'admin-content': typeof adminContent;
      'authoring-editor': typeof authoringEditor;
      'authoring-import': typeof authoringImport;
      'authoring-bank': typeof authoringBank;
      'answer-file': typeof answerFile;
      campaign: typeof campaign;
      grievance: typeof grievance;
      payout: typeof payout;
    };
  }
}

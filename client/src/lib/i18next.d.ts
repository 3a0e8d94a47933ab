import 'i18next';
import type enCommon from '../locales/en/common.json';

/** Keys are typed from the English resources. */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: { common: typeof enCommon };
  }
}

import { MSG } from '../../../sync-protocol/src/messages';
import i18n from './i18n';

const byText = new Map<string, string>(Object.entries(MSG).map(([k, v]) => [v, k]));

/**
 * The server sends English texts (sync-protocol MSG); show them in the chosen language. A
 * message built on a name ("Ravi updated successfully") keeps the name and translates the rest.
 */
export function translateServerMessage(msg: string): string {
  const key = byText.get(msg);
  if (key) return i18n.t(`messages:${key}` as never) as string;
  for (const [text, k] of byText) {
    if (msg.endsWith(` ${text}`)) {
      const name = msg.slice(0, msg.length - text.length - 1);
      return `${name} ${i18n.t(`messages:${k}` as never) as string}`;
    }
  }
  return msg;
}

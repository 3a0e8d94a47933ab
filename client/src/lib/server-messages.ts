import { MSG } from '@pm/protocol/messages';
import i18n from './i18n';

const byText = new Map<string, string>(Object.entries(MSG).map(([k, v]) => [v, k]));

/** The `messages` namespace is loaded on demand; until it is, the server's English text stands. */
const translate = (key: string, english: string): string => i18n.t(`messages:${key}` as never, { defaultValue: english }) as string;

/**
 * The server sends English texts (sync-protocol MSG); show them in the chosen language. A
 * message built on a name ("Ravi updated successfully") keeps the name and translates the rest.
 * The `messages` namespace must be loaded for a translation (`useTranslation('messages')` or
 * `i18n.loadNamespaces('messages')`; lib/api-client does the latter before it translates).
 */
export function translateServerMessage(msg: string): string {
  const key = byText.get(msg);
  if (key) return translate(key, msg);
  for (const [text, k] of byText) {
    if (msg.endsWith(` ${text}`)) {
      const name = msg.slice(0, msg.length - text.length - 1);
      return `${name} ${translate(k, text)}`;
    }
  }
  return msg;
}

/**
 * The cookie that tells the server a reader's chosen language (`en` or `hi`). The client writes
 * it whenever the language is set (client/src/lib/i18n.ts); the server reads it only at `/`, to
 * send a Hindi reader the shell rather than the home page prerendered in English
 * (server/src/lib/client-files.ts).
 */
export const LANGUAGE_COOKIE = 'lang';

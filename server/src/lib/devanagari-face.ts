import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's root (server/src/lib → ../../..), for the default client directory. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const UNICODE_RANGE = 'U+0900-097F,U+1CD0-1CF9,U+200C-200D,U+20A8,U+20B9,U+20F0,U+25CC,U+A830-A839,U+A8E0-A8FF,U+11B00-11B09';
const cache = new Map<string, string>();

/**
 * The app's Devanagari face (client/src/lib/devanagari-font.css) as an @font-face rule for the
 * server's own bilingual pages (the payment sandbox's hosted page), pointing at the file the
 * build emitted, so that their Hindi is not empty boxes on a phone without a Devanagari font
 * (docs/configuration.md, Fonts). '' when there is no build. Read once per directory.
 */
export function devanagariFontFace(clientDir?: string): string {
  const dir = path.resolve(clientDir ?? path.join(ROOT, 'dist'));
  let rule = cache.get(dir);
  if (rule === undefined) {
    let file: string | undefined;
    try {
      file = readdirSync(path.join(dir, 'assets')).find((f) => /^noto-sans-devanagari-devanagari-400-normal.*\.woff2$/.test(f));
    } catch {
      file = undefined;
    }
    rule = file ? `@font-face{font-family:"Noto Sans Devanagari";font-weight:400;font-display:swap;src:url(/assets/${file}) format("woff2");unicode-range:${UNICODE_RANGE}}` : '';
    cache.set(dir, rule);
  }
  return rule;
}

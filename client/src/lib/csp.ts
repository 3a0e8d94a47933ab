import { z } from 'zod';

/*
 * The page runs under a Content-Security-Policy whose script-src has no 'unsafe-eval'
 * (server/src/lib/security-headers.ts). zod 4 compiles object parsers with `new Function` when it
 * may, and finds out whether it may by trying one: the browser blocks that probe and reports it as
 * a violation even though zod catches the error. jitless skips the probe and the compiled path;
 * the interpreted parser gives the same results.
 *
 * Imported first by main.tsx, before any schema parses.
 */
z.config({ jitless: true });

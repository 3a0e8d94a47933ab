import { fileURLToPath } from 'node:url';

/**
 * `@/…` is `client/src/…` (docs/development.md "Layout"): the client's code imports its shared
 * folders by this name rather than by climbing more than two levels. The same alias is in
 * client/tsconfig.json (for TypeScript and lint), vite.config.ts and vitest.config.ts.
 */
export const CLIENT_ALIAS = { find: /^@\//, replacement: fileURLToPath(new URL('../client/src/', import.meta.url)) };

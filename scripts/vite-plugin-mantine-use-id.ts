import type { Plugin } from 'vite';

/*
 * Mantine's `useId` (@mantine/hooks) without its second render (docs/benchmarks.md "bench:lighthouse": blocking time).
 *
 * Mantine's hook starts from React's `useId` and then, in a layout effect after the first commit,
 * replaces it with a random id (`setUuid(randomId())`) — in every input, label, tab, menu and
 * popover, even when a fixed id was passed. Each of them then renders a second time in the same
 * task as the commit (React runs updates from layout effects synchronously): on the login page at
 * 4× CPU that second pass was 170 ms of one long task after hydration, and the ids the server drew
 * changed under the reader. React's own id is unique within the app and the same on the server
 * and in the browser, which is all an element id needs, so the module is replaced by one that
 * returns it (or the fixed id) and never updates.
 */

/** The module Vite loads for @mantine/hooks' useId (its ES build). */
export const MANTINE_USE_ID = /[\\/]@mantine[\\/]hooks[\\/]esm[\\/]use-id[\\/]use-id\.mjs$/;

/** The replacement: the same export, React's id with Mantine's `mantine-` prefix, no effect. */
export const USE_ID_SOURCE = `import { useId as useReactId } from "react";
function useId$1(staticId) {
	const reactId = useReactId();
	if (typeof staticId === "string") return staticId;
	return \`mantine-\${reactId.replace(/:/g, "")}\`;
}
export { useId$1 as useId };
`;

export function mantineUseId(): Plugin {
  return {
    name: 'pariksha:mantine-use-id',
    enforce: 'pre',
    load(id) {
      return MANTINE_USE_ID.test(id.split('?')[0] ?? id) ? { code: USE_ID_SOURCE, map: null } : null;
    },
  };
}

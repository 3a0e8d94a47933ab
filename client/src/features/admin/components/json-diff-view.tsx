import JsonView from '@uiw/react-json-view';
import { lightTheme } from '@uiw/react-json-view/light';
import type { CSSProperties, ReactNode } from 'react';
import type { ChangedPaths } from '../lib/json-diff';

const COLORS = {
  removed: 'var(--mantine-color-red-1)',
  added: 'var(--mantine-color-green-1)',
  changed: 'var(--mantine-color-yellow-2)',
  ancestor: 'var(--mantine-color-yellow-0)',
} as const;

/** The change kind of a key at `path` on one side of the diff, or null when unchanged. */
function kindOf(path: string, side: 'old' | 'new', paths: ChangedPaths): keyof typeof COLORS | null {
  if (side === 'old' && paths.removed.has(path)) return 'removed';
  if (side === 'new' && paths.added.has(path)) return 'added';
  if (paths.changed.has(path)) return 'changed';
  if (paths.ancestors.has(path)) return 'ancestor';
  return null;
}

/**
 * One side of an activity entry (old or new value) in a collapsible JSON viewer
 * (@uiw/react-json-view) whose keys are highlighted where the two sides differ (microdiff):
 * removed keys red on the old side, added keys green on the new side, changed keys yellow on
 * both, and the parents of a change faintly with a dashed outline, so a collapsed node shows
 * that something inside it changed.
 */
export function JsonDiffView({ value, side, paths, label }: { value: unknown; side: 'old' | 'new'; paths: ChangedPaths; label: string }) {
  if (value === null || value === undefined || typeof value !== 'object')
    return (
      <div role="group" aria-label={label}>
        {value === null || value === undefined ? '—' : <code>{JSON.stringify(value)}</code>}
      </div>
    );
  return (
    <div aria-label={label} role="group">
      <JsonView
        value={value as object}
        // Only the top-level keys open: a role's permission list or a person's nested values stay
        // folded (their key is marked when something inside changed) so a row stays short.
        collapsed={1}
        displayDataTypes={false}
        enableClipboard={false}
        shortenTextAfterLength={60}
        style={{ ...lightTheme, fontSize: 12, background: 'transparent' } as CSSProperties}
        components={{
          objectKey: (props) => {
            const ns = (props.namespace ?? []).map(String);
            const key = props.keyName === undefined ? '' : String(props.keyName);
            const full = ns.length && ns[ns.length - 1] === key ? ns : [...ns, key];
            const kind = kindOf(full.join('.'), side, paths);
            return (
              <span
                className={props.className}
                style={{
                  ...props.style,
                  ...(kind && { background: COLORS[kind], borderRadius: 3, padding: '0 2px' }),
                  // A parent of a change is often collapsed: a dashed outline points into it.
                  ...(kind === 'ancestor' && { outline: '1px dashed var(--mantine-color-yellow-7)' }),
                }}
                data-change={kind ?? undefined}
              >
                {props.children as ReactNode}
              </span>
            );
          },
        }}
      />
    </div>
  );
}

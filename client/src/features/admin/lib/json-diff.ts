import diff from 'microdiff';

/**
 * The paths that differ between an entry's old and new value, as dotted strings ("permissions.2",
 * "name"), each with every ancestor path, so a collapsed parent shows that something inside changed.
 * `removed` are only in the old value, `added` only in the new one, `changed` in both.
 */
export type ChangedPaths = { removed: Set<string>; added: Set<string>; changed: Set<string>; ancestors: Set<string> };

const isObject = (v: unknown): v is Record<string, unknown> | unknown[] => typeof v === 'object' && v !== null;

export function changedPaths(oldValue: unknown, newValue: unknown): ChangedPaths {
  const out: ChangedPaths = { removed: new Set(), added: new Set(), changed: new Set(), ancestors: new Set() };
  if (!isObject(oldValue) || !isObject(newValue)) return out;
  for (const d of diff(oldValue, newValue)) {
    const key = d.path.join('.');
    if (d.type === 'REMOVE') out.removed.add(key);
    else if (d.type === 'CREATE') out.added.add(key);
    else out.changed.add(key);
    for (let i = 1; i < d.path.length; i++) out.ancestors.add(d.path.slice(0, i).join('.'));
  }
  return out;
}

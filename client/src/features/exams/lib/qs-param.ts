/**
 * The take-exam parameter: the spec's JSON string of the whole question set,
 * or simply a set id. Returns the set id and, for a JSON string, the set as it was passed (shown
 * while the device does not hold the set).
 */
export function parseQsParam(raw: string | undefined): { id: string; passed: Record<string, unknown> | null } | null {
  if (!raw) return null;
  let text = raw;
  try {
    text = decodeURIComponent(raw);
  } catch {
    // Already decoded by the router.
  }
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const v = JSON.parse(trimmed) as unknown;
      if (v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string') {
        const id = (v as { id: string }).id;
        return id ? { id, passed: v as Record<string, unknown> } : null;
      }
      // The spec's older payloads name the id _id.
      if (v && typeof v === 'object' && typeof (v as { _id?: unknown })._id === 'string') return { id: (v as { _id: string })._id, passed: v as Record<string, unknown> };
    } catch {
      return null;
    }
    return null;
  }
  return /^[A-Za-z0-9_-]{1,64}$/.test(trimmed) ? { id: trimmed, passed: null } : null;
}

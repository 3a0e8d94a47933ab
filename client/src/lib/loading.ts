/** Count of requests in flight that show the loading bar (all but background ones). */
let pending = 0;
const listeners = new Set<() => void>();

export function subscribeLoading(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
export const getLoading = () => pending > 0;

export function startLoading(): () => void {
  pending++;
  if (pending === 1) listeners.forEach((l) => l());
  let done = false;
  return () => {
    if (done) return;
    done = true;
    pending--;
    if (pending === 0) listeners.forEach((l) => l());
  };
}

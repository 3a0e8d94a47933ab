// Stands in for the app's entry in start-after-paint.test.ts: counts how often it was started.
const w = globalThis as unknown as { entryStarts?: number };
w.entryStarts = (w.entryStarts ?? 0) + 1;
export {};

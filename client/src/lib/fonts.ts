/**
 * The self-hosted Devanagari faces (main.tsx imports their @font-face rules; they carry a
 * unicode-range, so English pages never download them).
 */
const DEVANAGARI_FACES = ['400 1em "Noto Sans Devanagari"', '600 1em "Noto Sans Devanagari"'];

/**
 * Fetches the Devanagari faces before Hindi text is first drawn, waiting at most `timeoutMs`.
 * Text drawn before its web font arrives flashes in a fallback font, and Chromium on systems
 * without any Devanagari font keeps some of it as empty boxes even after the font has loaded.
 */
export function loadDevanagariFonts(timeoutMs = 1500): Promise<void> {
  if (typeof document === 'undefined' || !('fonts' in document)) return Promise.resolve();
  const loaded = Promise.all(DEVANAGARI_FACES.map((face) => document.fonts.load(face, 'क'))).then(
    () => undefined,
    () => undefined,
  );
  return Promise.race([loaded, new Promise<void>((resolve) => setTimeout(resolve, timeoutMs))]);
}

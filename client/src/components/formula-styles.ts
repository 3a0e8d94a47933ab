/**
 * KaTeX's stylesheet and fonts, for rich text with formulas (docs/authoring.md). The server renders
 * formulas into KaTeX's HTML (server/src/lib/formulas.ts), so the screens that show question
 * text need only this CSS, never KaTeX's JavaScript: the test screen, the result page and the
 * authoring screens import this module for its side effect. It stays out of the first page's
 * bundle because only those lazy screens import it. Vite emits the fonts under assets/; the
 * service worker precaches the woff2 faces (vite.config.ts globPatterns), the only ones a browser
 * with a service worker asks for.
 */
import 'katex/dist/katex.min.css';

/**
 * The data a page was drawn with on the server (server/src/lib/rendered-pages.ts), written into
 * that page as a JSON block (`<script type="application/json">`, never run) so that the app's first
 * render in the browser draws the same and hydrates the markup instead of fetching and drawing it
 * again (client/src/lib/page-data.ts). Each field is the answer of the API the page would
 * otherwise ask, read from the database when the page was asked for.
 */
export const PAGE_DATA_ELEMENT_ID = 'pm-page-data';

export type PageData = {
  /** GET /api/plan's answer: `{ success: true, data: [...] }`. */
  plans?: unknown;
};

/**
 * Version of the replication protocol spoken between the client replica and `/api/sync`.
 * A client whose major version differs gets 426 (ARCHITECTURE decision 2). A minor version says
 * what a device understands, and the server answers each in the form it knows: 1.1 reads
 * `score_dist` histograms in their compact form (docs/live-tests.md "Older apps").
 */
export const PROTOCOL_VERSION = '1.1.0';

/** Header carrying the client's protocol version on sync requests. */
export const PROTOCOL_HEADER = 'X-Sync-Protocol';

/** Header carrying the server's clock (epoch ms) on every response (ARCHITECTURE decision 5). */
export const SERVER_TIME_HEADER = 'X-Server-Time';

/** Version text shown in the drawer and footer (docs/glossary.md "Fixed values"). */
export const APP_VERSION = '1.0.7';

/**
 * The name of the trust that runs the installation, in English and Hindi (docs/configuration.md:
 * TRUST_NAME, TRUST_NAME_HI). The server's defaults and the client's (the pages the build draws,
 * the app before the server has said otherwise) are these, the demo's trust.
 */
export const DEFAULT_TRUST_NAME = { en: 'Pariksha Mitra Charitable Trust', hi: 'परीक्षा मित्र चैरिटेबल ट्रस्ट' } as const;

/** The `<meta>` through which the server tells every page the configured name (lib/site-settings). */
export const TRUST_NAME_META = 'pm-trust-name';

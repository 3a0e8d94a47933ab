import { LegalDocument } from './legal-document';

/** Served at /privacy and /privacypolicy (spec §2). */
export default function PrivacyPage() {
  return <LegalDocument doc="privacy" />;
}

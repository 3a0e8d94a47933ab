import { LegalDocument } from './legal-document';

/** Served at /tnc (spec §2). */
export default function TermsPage() {
  return <LegalDocument doc="terms" />;
}

import { LegalDocument } from './legal-document';
import { StaticPageOr } from '@/components/static-page-or';

/** Served at /tnc. */
function BuiltInTermsPage() {
  return <LegalDocument doc="terms" />;
}

/** The admin's text when the back office has one (Static pages), else the built-in page. */
export default function TermsPage() {
  return (
    <StaticPageOr pageKey="terms">
      <BuiltInTermsPage />
    </StaticPageOr>
  );
}

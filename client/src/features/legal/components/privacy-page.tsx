import { LegalDocument } from './legal-document';
import { StaticPageOr } from '@/components/static-page-or';

/** Served at /privacy and /privacypolicy. */
function BuiltInPrivacyPage() {
  return <LegalDocument doc="privacy" />;
}

/** The admin's text when the back office has one (Static pages), else the built-in page. */
export default function PrivacyPage() {
  return (
    <StaticPageOr pageKey="privacy">
      <BuiltInPrivacyPage />
    </StaticPageOr>
  );
}

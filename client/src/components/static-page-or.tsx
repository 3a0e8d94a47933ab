import { Container, Typography } from '@mantine/core';
import type { ReactNode } from 'react';
import type { StaticPageKey } from '@pm/protocol/static-page';
import { useStaticPageHtml } from '../hooks/use-static-page';
import { RichHtml } from './rich-html';

/**
 * A public page an admin may rewrite (back office, Static pages): the admin's text when there
 * is one for the page, else the page's built-in text (also while loading and offline).
 */
export function StaticPageOr({ pageKey, children }: { pageKey: StaticPageKey; children: ReactNode }) {
  const html = useStaticPageHtml(pageKey);
  if (!html) return <>{children}</>;
  return (
    <Container size="md" py="lg" px={{ base: 'sm', sm: 'md' }}>
      {/* Typography spaces the editor's headings, paragraphs and lists like the rest of the site. */}
      <Typography>
        <RichHtml html={html} className="static-page" />
      </Typography>
    </Container>
  );
}

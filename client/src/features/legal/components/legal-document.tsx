import { Anchor, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { Fragment, type ReactNode, useEffect } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ScrollToTop } from '@/components/scroll-to-top';
import { COPYRIGHT_EMAIL } from '@/config/paths';
import classes from './legal-document.module.css';
import { formatDate } from '@/lib/intl-format';

/** When the legal texts were last changed; shown in the reader's language. */
export const LEGAL_LAST_UPDATED = '2026-11-22';

/** One numbered section of legal.json: paragraphs, then an optional bullet list and closing paragraphs. */
export type LegalSection = { title: string; body: string[]; list?: string[]; after?: string[] };

type LegalDoc = 'privacy' | 'terms';

/** The copyright address arrives by interpolation (so it stays configurable) and is made a mailto link here. */
function withEmailLink(text: string): ReactNode {
  const parts = text.split(COPYRIGHT_EMAIL);
  if (parts.length === 1) return text;
  return parts.map((part, i) => (
    <Fragment key={i}>
      {part}
      {i < parts.length - 1 && (
        <Anchor href={`mailto:${COPYRIGHT_EMAIL}`} className={classes.email}>
          {COPYRIGHT_EMAIL}
        </Anchor>
      )}
    </Fragment>
  ));
}

function formatLegalDate(iso: string, lang: string) {
  return formatDate(iso, lang, 'dateLong', 'UTC');
}

/** A long legal text (Privacy policy, Terms & Conditions): title, date, contents, numbered sections. */
export function LegalDocument({ doc }: { doc: LegalDoc }) {
  const { t, i18n } = useTranslation('legal');
  const intro = t(`${doc}.intro`, { returnObjects: true });
  const sections: LegalSection[] = t(`${doc}.sections`, { returnObjects: true, email: COPYRIGHT_EMAIL });
  const sectionId = (n: number) => `${doc}-section-${n}`;
  const tocId = `${doc}-contents`;
  const { hash } = useLocation();

  // A link straight to a section (/tnc#terms-section-13) arrives before this lazy page has
  // rendered, so the layout's scroll restoration cannot find the heading; look again now.
  useEffect(() => {
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
    // Only on arrival: later hash changes are scrolled by the layout.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  /** Contents links are router links (a PUSH the layout scrolls for); focus follows, for keyboard users. */
  const focusSection = (id: string) => () => requestAnimationFrame(() => document.getElementById(id)?.focus({ preventScroll: true }));

  return (
    <Container size="md" py="lg" px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1}>{t(`${doc}.title`)}</Title>
          <Text size="sm" c="gray.7" data-testid="legal-last-updated">
            <Trans
              t={t}
              i18nKey="lastUpdated"
              values={{ date: formatLegalDate(LEGAL_LAST_UPDATED, i18n.language) }}
              components={{ time: <time dateTime={LEGAL_LAST_UPDATED} /> }}
            />
          </Text>
        </Stack>
        {intro.map((p) => (
          <Text key={p}>{p}</Text>
        ))}

        <Paper component="nav" aria-labelledby={tocId} withBorder radius="lg" p="md" bg="gray.0">
          <Title order={2} size="h4" id={tocId} mb="xs">
            {t('contents')}
          </Title>
          <ol className={classes.toc}>
            {sections.map((section, i) => (
              <li key={section.title}>
                <Anchor component={Link} to={{ hash: sectionId(i + 1) }} onClick={focusSection(sectionId(i + 1))} size="sm">
                  {section.title}
                </Anchor>
              </li>
            ))}
          </ol>
        </Paper>

        {sections.map((section, i) => {
          const n = i + 1;
          return (
            <Stack key={section.title} component="section" aria-labelledby={sectionId(n)} gap="xs" data-testid="legal-section">
              <Title order={2} size="h3" id={sectionId(n)} className={classes.heading} tabIndex={-1}>
                {`${n}. ${section.title}`}
              </Title>
              {section.body.map((p) => (
                <Text key={p}>{withEmailLink(p)}</Text>
              ))}
              {section.list && (
                <ul className={classes.list}>
                  {section.list.map((item) => (
                    <li key={item}>
                      <Text component="span">{withEmailLink(item)}</Text>
                    </li>
                  ))}
                </ul>
              )}
              {section.after?.map((p) => (
                <Text key={p}>{withEmailLink(p)}</Text>
              ))}
            </Stack>
          );
        })}
      </Stack>
      <ScrollToTop />
    </Container>
  );
}

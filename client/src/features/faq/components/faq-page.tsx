import { Accordion, Button, Container, Group, Paper, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconMessageQuestion, IconGavel, IconHeartHandshake, IconSpeakerphone, IconUserCircle, IconWallet } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import classes from './faq-page.module.css';
import { StaticPageOr } from '@/components/static-page-or';

/** Five categories, Fundraiser's selected first. */
const CATEGORIES = [
  { id: 'fundraiser', icon: IconHeartHandshake },
  { id: 'campaigns', icon: IconSpeakerphone },
  { id: 'payments', icon: IconWallet },
  { id: 'legal', icon: IconGavel },
  { id: 'account', icon: IconUserCircle },
] as const;

type CategoryId = (typeof CATEGORIES)[number]['id'];

const PANEL_ID = 'faq-questions';

function BuiltInFaqPage() {
  const { t } = useTranslation('faq');
  const [category, setCategory] = useState<CategoryId>('fundraiser');
  const items = t(`categories.${category}.items`, { returnObjects: true });

  return (
    <Container size="lg" py="lg" px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="xl">
        <Stack gap="xs">
          <Title order={1}>{t('title')}</Title>
          <Text c="gray.7">{t('intro')}</Text>
        </Stack>

        <SimpleGrid cols={{ base: 2, xs: 3, md: 5 }} spacing="sm" role="group" aria-label={t('categoriesLabel')}>
          {CATEGORIES.map(({ id, icon: Icon }) => (
            <UnstyledButton
              key={id}
              className={classes.card}
              aria-pressed={category === id}
              aria-controls={PANEL_ID}
              onClick={() => setCategory(id)}
              data-testid={`faq-category-${id}`}
            >
              <span className={classes.icon} aria-hidden>
                <Icon size={20} />
              </span>
              <span className={classes.cardTitle}>{t(`categories.${id}.title`)}</span>
              <span className={classes.cardDescription}>{t(`categories.${id}.description`)}</span>
            </UnstyledButton>
          ))}
        </SimpleGrid>

        <Stack component="section" id={PANEL_ID} aria-labelledby="faq-category-title" gap="md">
          <Title order={2} id="faq-category-title">
            {t(`categories.${category}.title`)}
          </Title>
          {/* Keyed by category so that switching topics starts with every question closed. */}
          <Accordion key={category} order={3} variant="separated" radius="md" chevronPosition="right">
            {items.map((item, index) => (
              <Accordion.Item key={item.q} value={String(index)}>
                <Accordion.Control>{item.q}</Accordion.Control>
                <Accordion.Panel>
                  <Text>{item.a}</Text>
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        </Stack>

        <Paper withBorder radius="lg" p="lg" bg="gray.0">
          <Group justify="space-between" gap="sm">
            <Group gap="sm" wrap="nowrap">
              <IconMessageQuestion size={28} aria-hidden color="var(--mantine-color-indigo-6)" />
              <Text fw={600}>{t('stillQuestions')}</Text>
            </Group>
            <Button component={Link} to={paths.contact}>
              {t('contact')}
            </Button>
          </Group>
        </Paper>
      </Stack>
    </Container>
  );
}

/** The admin's text when the back office has one (Static pages), else the built-in page. */
export default function FaqPage() {
  return (
    <StaticPageOr pageKey="faq">
      <BuiltInFaqPage />
    </StaticPageOr>
  );
}

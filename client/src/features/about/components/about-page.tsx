import { Button, Container, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAward, IconFileText, IconPencilCheck, IconSchool, IconTrophy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ScrollToTop } from '@/components/scroll-to-top';
import { paths } from '@/config/paths';
import { MissionVision } from './mission-vision';
import { StaticPageOr } from '@/components/static-page-or';

/** The About Us sections, in this order. */
const OFFER = [
  { id: 'success', icon: IconAward, color: 'indigo' },
  { id: 'papers', icon: IconFileText, color: 'teal' },
  { id: 'exams', icon: IconPencilCheck, color: 'grape' },
  { id: 'scholarships', icon: IconSchool, color: 'orange' },
  { id: 'compete', icon: IconTrophy, color: 'yellow' },
] as const;

function BuiltInAboutPage() {
  const { t } = useTranslation('about');
  const intro = t('intro', { returnObjects: true });
  const trust = t('trust.paragraphs', { returnObjects: true });
  return (
    <Container size="md" py="lg" px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="xl">
        <Stack gap="sm">
          <Title order={1}>{t('title')}</Title>
          {intro.map((p, i) => (
            <Text key={p} size={i === 0 ? 'lg' : 'md'}>
              {p}
            </Text>
          ))}
        </Stack>

        <MissionVision />

        <Stack component="section" aria-labelledby="about-offer" gap="md">
          <Title order={2} id="about-offer">
            {t('offer.title')}
          </Title>
          <List spacing="lg" center={false} listStyleType="none" styles={{ itemWrapper: { alignItems: 'flex-start' } }}>
            {OFFER.map(({ id, icon: Icon, color }) => (
              <List.Item
                key={id}
                icon={
                  <ThemeIcon color={color} variant="light" size={40} radius="md" aria-hidden>
                    <Icon size={22} />
                  </ThemeIcon>
                }
              >
                <Text fw={700}>{t(`offer.items.${id}.title`)}</Text>
                <Text c="gray.7">{t(`offer.items.${id}.text`)}</Text>
              </List.Item>
            ))}
          </List>
        </Stack>

        <Paper component="section" aria-labelledby="about-trust" withBorder radius="lg" p="lg">
          <Stack gap="sm">
            <Title order={2} id="about-trust" size="h3">
              {t('trust.title')}
            </Title>
            {trust.map((p) => (
              <Text key={p}>{p}</Text>
            ))}
            <Group gap="sm" mt="xs">
              <Button component={Link} to={paths.faq} variant="light">
                {t('trust.faq')}
              </Button>
              <Button component={Link} to={paths.contact} variant="default">
                {t('trust.contact')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      </Stack>
      <ScrollToTop />
    </Container>
  );
}

/** The admin's text when the back office has one (Static pages), else the built-in page. */
export default function AboutPage() {
  return (
    <StaticPageOr pageKey="about">
      <BuiltInAboutPage />
    </StaticPageOr>
  );
}

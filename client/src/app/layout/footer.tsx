import { ActionIcon, Anchor, Container, Group, Stack, Text } from '@mantine/core';
import { IconBrandFacebook, IconBrandInstagram, IconBrandWhatsapp, IconBrandYoutube } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { APP_VERSION, paths } from '../../config/paths';

const SOCIAL = [
  { key: 'facebook', label: 'Facebook', href: 'https://www.facebook.com/', icon: IconBrandFacebook },
  { key: 'youtube', label: 'YouTube', href: 'https://www.youtube.com/', icon: IconBrandYoutube },
  { key: 'instagram', label: 'Instagram', href: 'https://www.instagram.com/', icon: IconBrandInstagram },
  { key: 'whatsapp', label: 'WhatsApp', href: 'https://www.whatsapp.com/', icon: IconBrandWhatsapp },
];

/** Footer (spec §2): policy links, social buttons, a note and the version. */
export function Footer() {
  const { t } = useTranslation();
  return (
    <Container size="lg" py="lg" component="footer">
      <Stack gap="sm">
        <Group gap="md" component="nav" aria-label={t('footer.follow')} wrap="wrap">
          <Anchor component={Link} to={paths.privacy}>
            {t('footer.privacy')}
          </Anchor>
          <Anchor component={Link} to={paths.terms}>
            {t('footer.terms')}
          </Anchor>
          <Anchor component={Link} to={paths.faq}>
            {t('footer.faq')}
          </Anchor>
          <Anchor component={Link} to={paths.contact}>
            {t('footer.contact')}
          </Anchor>
        </Group>
        <Group gap="xs" aria-label={t('footer.follow')}>
          {SOCIAL.map(({ key, label, href, icon: Icon }) => (
            <ActionIcon key={key} component="a" href={href} target="_blank" rel="noopener noreferrer" variant="light" size="lg" aria-label={label}>
              <Icon size={18} />
            </ActionIcon>
          ))}
        </Group>
        <Text size="sm" c="dimmed">
          {t('footer.note')}
        </Text>
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed">
            {t('footer.rights', { year: new Date().getFullYear() })}
          </Text>
          <Text size="xs" c="dimmed" data-testid="footer-version">
            {t('nav.version', { version: APP_VERSION })}
          </Text>
        </Group>
      </Stack>
    </Container>
  );
}

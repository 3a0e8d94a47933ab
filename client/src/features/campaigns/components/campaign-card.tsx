import { Card, Group, Image, Stack, Text } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import type { CampaignCard as Card_ } from '../api/types';
import { useLang } from '../hooks/use-lang';
import { pick } from '../lib/campaign-lib';
import { CampaignProgress, CauseBadge, StatusBadge } from './campaign-bits';
import classes from './campaigns.module.css';

/** A campaign of the list: its first image, title, cause, progress; the title's link covers the card. */
export function CampaignCardView({ campaign }: { campaign: Card_ }) {
  const lang = useLang();
  const title = pick(campaign.title, lang);
  return (
    <Card withBorder radius="md" padding="md" className={classes.card} data-testid="campaign-card">
      <Card.Section>
        {campaign.image ? (
          <Image src={campaign.image} alt="" h={160} fit="cover" loading="lazy" />
        ) : (
          <div className={classes.noImage} aria-hidden>
            <IconPhoto size={40} />
          </div>
        )}
      </Card.Section>
      <Stack gap="xs" mt="sm">
        <Group gap="xs">
          <CauseBadge cause={campaign.cause} />
          {campaign.status !== 'APPROVED' && <StatusBadge status={campaign.status} />}
        </Group>
        <Text fw={600} lineClamp={2} component="h3" m={0} fz="md">
          <Link to={`${paths.campaigns}/${encodeURIComponent(campaign.id)}`} className={classes.cardLink}>
            {title}
          </Link>
        </Text>
        <CampaignProgress campaign={campaign} />
      </Stack>
    </Card>
  );
}

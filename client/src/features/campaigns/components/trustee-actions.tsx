import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '@/lib/notify';
import { campaignKeys, moveCampaign, type TrusteeMove } from '../api/campaigns';
import type { CampaignStatus } from '../api/types';

/** The trustee's moves from each state (docs/charity.md "A campaign": the state diagram). */
export const MOVES_FROM: Record<CampaignStatus, readonly TrusteeMove[]> = {
  DRAFT: [],
  SUBMITTED: ['approve', 'refuse'],
  APPROVED: ['pause', 'close'],
  PAUSED: ['resume', 'close'],
  REFUSED: [],
  CLOSED: [],
};

/**
 * Moves that carry the trustee's words: a refusal its reason (required, the owner reads it), a
 * pause or close its public reason (optional, shown on the campaign's page: docs/charity.md "Moderation").
 */
const WITH_TEXT: readonly TrusteeMove[] = ['refuse', 'pause', 'close'];

const COLORS: Record<TrusteeMove, string> = { approve: 'teal', refuse: 'red', pause: 'yellow', resume: 'teal', close: 'dark' };

/** The moves a trustee may make on a campaign in its state, each confirmed first; a refusal needs its reason. */
export function TrusteeActions({ campaignId, status, onDone }: { campaignId: string; status: CampaignStatus; onDone?: (move: TrusteeMove) => void }) {
  const { t } = useTranslation('campaign');
  const client = useQueryClient();
  const [move, setMove] = useState<TrusteeMove | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const moves = MOVES_FROM[status];
  if (moves.length === 0) return null;

  const dismiss = () => {
    setMove(null);
    setReason('');
  };

  const confirm = async () => {
    if (!move) return;
    setBusy(true);
    try {
      await moveCampaign(campaignId, move, WITH_TEXT.includes(move) ? reason.trim() : undefined);
      await client.invalidateQueries({ queryKey: campaignKeys.all });
      notifySuccess(t(`trustee.done.${move}`));
      setMove(null);
      setReason('');
      onDone?.(move);
    } catch {
      // The fetch wrapper has shown the server's reason.
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Group gap="xs" data-testid="trustee-actions">
        {moves.map((m) => (
          <Button key={m} size="sm" color={COLORS[m]} variant={m === 'approve' || m === 'resume' ? 'filled' : 'light'} onClick={() => setMove(m)}>
            {t(`trustee.moves.${m}`)}
          </Button>
        ))}
      </Group>
      <Modal opened={move !== null} onClose={dismiss} title={move ? t(`trustee.confirm.${move}.title`) : ''} centered>
        {move && (
          <Stack gap="sm">
            <Text size="sm">{t(`trustee.confirm.${move}.text`)}</Text>
            {move === 'refuse' && (
              <Textarea label={t('trustee.reason')} withAsterisk autosize minRows={3} maxLength={1000} value={reason} onChange={(e) => setReason(e.currentTarget.value)} data-autofocus />
            )}
            {(move === 'pause' || move === 'close') && (
              <Textarea
                label={t('trustee.publicReason')}
                description={t('trustee.publicReasonHint')}
                autosize
                minRows={2}
                maxLength={1000}
                value={reason}
                onChange={(e) => setReason(e.currentTarget.value)}
                data-autofocus
              />
            )}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={dismiss}>
                {t('trustee.cancel')}
              </Button>
              <Button color={COLORS[move]} onClick={() => void confirm()} loading={busy} disabled={move === 'refuse' && !reason.trim()}>
                {t(`trustee.moves.${move}`)}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}

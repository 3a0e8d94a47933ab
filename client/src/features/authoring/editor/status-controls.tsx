import { Badge, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type QuestionStatus, REASON_MAX, STATUS_NEXT } from '@pm/protocol/question';

const STATUS_COLOR: Record<QuestionStatus, string> = { PENDING: 'gray', REVIEWED: 'blue', APPROVED: 'green', REJECTED: 'red' };

/** The review step that leads to each status (docs/authoring.md), as the button names it. */
const ACTION: Record<QuestionStatus, 'backToPending' | 'markReviewed' | 'approve' | 'reject'> = {
  PENDING: 'backToPending',
  REVIEWED: 'markReviewed',
  APPROVED: 'approve',
  REJECTED: 'reject',
};

/** The current status, as a badge; a rejected question shows why. */
export function StatusBadge({ st, reason }: { st: QuestionStatus; reason?: string | null }) {
  const { t } = useTranslation('authoring-editor');
  return (
    <Group gap="xs" wrap="nowrap">
      <Badge color={STATUS_COLOR[st]} variant="light" aria-label={t('status.current', { status: t(`status.${st}`) })}>
        {t(`status.${st}`)}
      </Badge>
      {st === 'REJECTED' && reason && (
        <Text size="sm" c="red.8">
          {t('status.reasonShown', { reason })}
        </Text>
      )}
    </Group>
  );
}

/**
 * The review steps a saved question can take from its status (sync-protocol STATUS_NEXT):
 * Mark reviewed, Approve, Reject (with a required reason, asked in a small dialog), Back to
 * pending. `onMove` sends the step and tells whether it went through.
 */
export function StatusControls({
  st,
  disabledReason,
  busy,
  onMove,
}: {
  st: QuestionStatus;
  /** Why the steps cannot be taken now (unsaved edits, a new question), shown instead. */
  disabledReason?: string | null;
  busy: boolean;
  onMove: (st: QuestionStatus, reason?: string) => Promise<boolean>;
}) {
  const { t } = useTranslation(['authoring-editor', 'messages']);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const next = STATUS_NEXT[st].filter((s) => s !== st);

  const reject = async () => {
    if (!reason.trim()) {
      setReasonError(t('messages:rejectReasonRequired'));
      return;
    }
    if (await onMove('REJECTED', reason.trim())) {
      setRejecting(false);
      setReason('');
    }
  };

  return (
    <Stack gap={4}>
      <Group gap="xs" role="group" aria-label={t('status.actions')}>
        {next.map((s) => (
          <Button
            key={s}
            size="xs"
            variant={s === 'APPROVED' ? 'filled' : 'light'}
            color={STATUS_COLOR[s] === 'gray' ? undefined : STATUS_COLOR[s]}
            disabled={Boolean(disabledReason) || busy}
            onClick={() => {
              if (s === 'REJECTED') {
                setReasonError(null);
                setRejecting(true);
              } else void onMove(s);
            }}
          >
            {t(`status.action.${ACTION[s]}`)}
          </Button>
        ))}
      </Group>
      {disabledReason && (
        <Text size="xs" c="dimmed">
          {disabledReason}
        </Text>
      )}
      <Modal opened={rejecting} onClose={() => setRejecting(false)} title={t('status.rejectTitle')} centered>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void reject();
          }}
        >
          <Stack gap="sm">
            <Textarea
              label={t('status.reason')}
              value={reason}
              onChange={(e) => {
                setReason(e.currentTarget.value);
                setReasonError(null);
              }}
              error={reasonError}
              maxLength={REASON_MAX}
              autosize
              minRows={3}
              required
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setRejecting(false)}>
                {t('actions.cancel')}
              </Button>
              <Button type="submit" color="red" loading={busy}>
                {t('status.action.reject')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}

import { Alert, Button, Checkbox, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { moveWithdrawal, payoutKeys, type Withdrawal, type WithdrawalMove, type WithdrawalMoveBody } from '../api/payouts';
import { useLang } from '../hooks/use-lang';
import { formatPaise } from '@/lib/payments/amount';
import { nameDiffers } from '../lib/payout-rules';

type Dialog = 'approve' | 'reject' | null;

/** Sends one move and refreshes every payout list; a refusal comes back as its text. */
function useMove(withdrawal: Withdrawal) {
  const { t } = useTranslation(['payout', 'common']);
  const client = useQueryClient();
  const [busy, setBusy] = useState<WithdrawalMove | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const send = async (move: WithdrawalMove, body?: WithdrawalMoveBody): Promise<boolean> => {
    setBusy(move);
    setRefusal(null);
    try {
      await moveWithdrawal(withdrawal.id, move, body);
      notifySuccess(t(`payout:queue.done.${move}`));
      await client.invalidateQueries({ queryKey: payoutKeys.all });
      return true;
    } catch (e) {
      setRefusal(e instanceof ApiError ? e.msg : t('common:errors.someError'));
      return false;
    } finally {
      setBusy(null);
    }
  };
  return { send, busy, refusal, clear: () => setRefusal(null) };
}

/**
 * Approving: an optional note, and — when the bank's name for the payee is not the holder's — an
 * explicit confirmation that goes to the server as `acceptNameMismatch: true` (docs/charity.md
 * "Withdrawals": never silently accepted).
 */
function ApproveDialog({ withdrawal, opened, busy, refusal, onClose, onApprove }: {
  withdrawal: Withdrawal;
  opened: boolean;
  busy: boolean;
  refusal: string | null;
  onClose: () => void;
  onApprove: (body: { note?: string; acceptNameMismatch?: boolean }) => void;
}) {
  const { t } = useTranslation('payout');
  const lang = useLang();
  const small = useMediaQuery('(max-width: 480px)');
  const [note, setNote] = useState('');
  const [accepted, setAccepted] = useState(false);
  const mismatch = nameDiffers(withdrawal.payee);
  const approve = () => onApprove({ ...(note.trim() && { note: note.trim() }), ...(mismatch && { acceptNameMismatch: true }) });
  return (
    <Modal opened={opened} onClose={onClose} title={t('queue.approveTitle')} fullScreen={small}>
      <Stack gap="sm">
        <Text size="sm">{t('queue.approveText', { amount: formatPaise(withdrawal.amount, lang), payee: withdrawal.payee.supplierName ?? withdrawal.payee.holderName })}</Text>
        {mismatch && (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title={t('account.mismatchTitle')}>
            <Stack gap="xs">
              <Text size="sm">{t('account.mismatch', { registered: withdrawal.payee.verifiedName, holder: withdrawal.payee.supplierName ?? withdrawal.payee.holderName })}</Text>
              <Checkbox label={t('queue.acceptMismatch', { registered: withdrawal.payee.verifiedName })} checked={accepted} onChange={(e) => setAccepted(e.currentTarget.checked)} />
            </Stack>
          </Alert>
        )}
        <Textarea label={t('queue.note')} autosize minRows={2} maxLength={500} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
        {refusal && (
          <Alert color="red" variant="light" role="alert">
            {refusal}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button color="teal" loading={busy} disabled={mismatch && !accepted} onClick={approve}>
            {t('queue.approve')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Rejecting needs its reason, which the beneficiary is told. */
function RejectDialog({ opened, busy, refusal, onClose, onReject }: { opened: boolean; busy: boolean; refusal: string | null; onClose: () => void; onReject: (reason: string) => void }) {
  const { t } = useTranslation('payout');
  const small = useMediaQuery('(max-width: 480px)');
  const [reason, setReason] = useState('');
  return (
    <Modal opened={opened} onClose={onClose} title={t('queue.rejectTitle')} fullScreen={small}>
      <Stack gap="sm">
        <Textarea label={t('queue.reason')} withAsterisk autosize minRows={2} maxLength={500} value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
        {refusal && (
          <Alert color="red" variant="light" role="alert">
            {refusal}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button color="red" loading={busy} disabled={!reason.trim()} onClick={() => onReject(reason.trim())}>
            {t('queue.reject')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * A trustee's moves on one withdrawal of the queue (docs/charity.md "Withdrawals"): approve or
 * reject one REQUESTED (never one's own, never twice); `checksPayouts` (APPROVE_WITHDRAWAL) check a
 * payment's status and pay a FAILED one again. What the reader may not do is said, not offered.
 */
export function WithdrawalActions({ withdrawal, me, checksPayouts }: { withdrawal: Withdrawal; me: string | undefined; checksPayouts: boolean }) {
  const { t } = useTranslation('payout');
  const { send, busy, refusal, clear } = useMove(withdrawal);
  const [dialog, setDialog] = useState<Dialog>(null);
  const open = (d: Dialog) => {
    clear();
    setDialog(d);
  };
  const close = () => setDialog(null);
  const done = (ok: boolean) => ok && close();
  const own = withdrawal.requester.id === me;
  const approved = withdrawal.approvals.some((a) => a.by.id === me);
  const requested = withdrawal.status === 'REQUESTED';
  return (
    <Stack gap="xs" data-testid="withdrawal-actions">
      {requested && own && <Text size="sm" c="dimmed">{t('queue.yours')}</Text>}
      {requested && approved && <Text size="sm" c="dimmed">{t('queue.approvedByYou')}</Text>}
      <Group gap="xs">
        {requested && !own && !approved && (
          <Button size="xs" color="teal" onClick={() => open('approve')}>
            {t('queue.approve')}
          </Button>
        )}
        {requested && !own && (
          <Button size="xs" variant="light" color="red" onClick={() => open('reject')}>
            {t('queue.reject')}
          </Button>
        )}
        {checksPayouts && (withdrawal.status === 'PAYING' || withdrawal.status === 'APPROVED') && (
          <Button size="xs" variant="light" loading={busy === 'check'} onClick={() => void send('check')}>
            {t('queue.check')}
          </Button>
        )}
        {checksPayouts && withdrawal.status === 'FAILED' && (
          <Button size="xs" variant="light" color="orange" loading={busy === 'retry'} onClick={() => void send('retry')}>
            {t('queue.retry')}
          </Button>
        )}
      </Group>
      {dialog === null && refusal && (
        <Alert color="red" variant="light" role="alert">
          {refusal}
        </Alert>
      )}
      {dialog === 'approve' && (
        <ApproveDialog withdrawal={withdrawal} opened busy={busy === 'approve'} refusal={refusal} onClose={close} onApprove={(body) => void send('approve', body).then(done)} />
      )}
      {dialog === 'reject' && <RejectDialog opened busy={busy === 'reject'} refusal={refusal} onClose={close} onReject={(reason) => void send('reject', { reason }).then(done)} />}
    </Stack>
  );
}

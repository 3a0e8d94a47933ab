import { Button, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconFlag } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '@/lib/notify';
import { type ReportReason, reportCampaign } from '../api/campaigns';

const REASONS: readonly ReportReason[] = ['FRAUD', 'WRONG_INFO', 'OFFENSIVE', 'OTHER'];

/**
 * "Report this campaign" (docs/charity.md "Grievances"): anyone, guests too, tells the trustees
 * what looks wrong; the report lands in their grievance queue. A way back (e-mail or mobile) is
 * optional.
 */
export function ReportCampaign({ campaignId }: { campaignId: string }) {
  const { t } = useTranslation('campaign');
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [text, setText] = useState('');
  const [contact, setContact] = useState('');
  const [busy, setBusy] = useState(false);

  const close = () => {
    setOpen(false);
    setReason(null);
    setText('');
    setContact('');
  };
  const send = async () => {
    if (!reason) return;
    setBusy(true);
    try {
      await reportCampaign(campaignId, { reason, text: text.trim(), ...(contact.trim() && { contact: contact.trim() }) });
      notifySuccess(t('report.sent'));
      close();
    } catch {
      // The fetch wrapper has shown the server's reason (a field's message, or too many reports).
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="subtle" color="gray" size="xs" leftSection={<IconFlag size={16} aria-hidden />} onClick={() => setOpen(true)}>
        {t('report.open')}
      </Button>
      <Modal opened={open} onClose={close} title={t('report.title')} centered>
        <Stack gap="sm">
          <Text size="sm">{t('report.intro')}</Text>
          <Select
            label={t('report.reason')}
            withAsterisk
            data={REASONS.map((r) => ({ value: r, label: t(`report.reasons.${r}`) }))}
            value={reason}
            onChange={(v) => setReason(v as ReportReason | null)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: false }}
          />
          <Textarea label={t('report.text')} withAsterisk autosize minRows={3} maxLength={2000} value={text} onChange={(e) => setText(e.currentTarget.value)} />
          <TextInput label={t('report.contact')} description={t('report.contactHint')} maxLength={254} value={contact} onChange={(e) => setContact(e.currentTarget.value)} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t('report.cancel')}
            </Button>
            <Button color="red" onClick={() => void send()} loading={busy} disabled={!reason || !text.trim()}>
              {t('report.send')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

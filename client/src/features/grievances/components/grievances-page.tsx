import { Alert, Button, Center, Container, Loader, Paper, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { GRIEVANCE_SUBJECTS, GRIEVANCE_TEXT_MAX, GRIEVANCE_TITLE_MAX, type GrievanceSubject } from '@pm/protocol/grievance';
import { ApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/intl-format';
import { notifySuccess } from '@/lib/notify';
import { formatPaise } from '@/lib/payments/amount';
import { grievanceKeys, raiseGrievance, useDonationsToChoose, useMyGrievances } from '../api/grievances';
import { useLang } from '../hooks/use-lang';
import { grievancePath, needsSubjectId, prefillOf } from '../lib/grievance-lib';
import { GrievanceCard } from './grievance-bits';

/** Which donation: the person's own, by campaign, amount and date (the server checks it is theirs). */
function DonationChoice({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const { t } = useTranslation('grievance');
  const lang = useLang();
  const query = useDonationsToChoose(true);
  const rows = query.data ?? [];
  const data = rows.map((d) => ({
    value: d.orderId,
    label: `${(lang === 'hi' ? d.campaign.title.hi : '') || d.campaign.title.en} · ${formatPaise(d.amount, lang)} · ${formatDate(d.createdAt, lang, 'date')}`,
  }));
  // A donation named in the address that the list does not hold (a guest's, given with the same e-mail) stays choosable.
  if (value && !data.some((d) => d.value === value)) data.unshift({ value, label: value });
  return (
    <Select
      label={t('raise.donation')}
      withAsterisk
      data={data}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      nothingFoundMessage={t('raise.noDonations')}
      disabled={query.isPending}
      comboboxProps={{ withinPortal: false }}
    />
  );
}

/** The form: what it is about (its subject filled in from the address), a title and what happened. */
function RaiseForm() {
  const { t } = useTranslation('grievance');
  const lang = useLang();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [first] = useState(() => prefillOf(params));
  const [subject, setSubject] = useState<GrievanceSubject>(first.subject);
  const [subjectId, setSubjectId] = useState(first.subjectId);
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const ready = title.trim() !== '' && text.trim() !== '' && (!needsSubjectId(subject) || subjectId.trim() !== '');

  const send = async () => {
    setBusy(true);
    try {
      const r = await raiseGrievance({ subject, ...(needsSubjectId(subject) && { subjectId: subjectId.trim() }), title: title.trim(), text: text.trim() });
      notifySuccess(t('raise.sent', { number: r.data.number, date: formatDate(r.data.dueAt, lang, 'date') }));
      await client.invalidateQueries({ queryKey: grievanceKeys.all });
      void navigate(grievancePath(r.data.id));
    } catch {
      // The fetch wrapper has shown the server's reason (the field it names).
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p={{ base: 'sm', xs: 'md' }} radius="md" component="section" aria-labelledby="raise-grievance">
      <Stack gap="sm">
        <Title order={2} size="h4" id="raise-grievance">
          {t('raise.title')}
        </Title>
        <Select
          label={t('raise.subject')}
          data={GRIEVANCE_SUBJECTS.map((s) => ({ value: s, label: t(`subjects.${s}`) }))}
          value={subject}
          onChange={(v) => {
            if (!v) return;
            setSubject(v as GrievanceSubject);
            setSubjectId('');
          }}
          allowDeselect={false}
          comboboxProps={{ withinPortal: false }}
        />
        {subject === 'DONATION' && <DonationChoice value={subjectId} onChange={setSubjectId} />}
        {(subject === 'CAMPAIGN' || subject === 'WITHDRAWAL') && (
          <TextInput label={t(subject === 'CAMPAIGN' ? 'raise.campaign' : 'raise.withdrawal')} withAsterisk maxLength={64} value={subjectId} onChange={(e) => setSubjectId(e.currentTarget.value)} />
        )}
        <TextInput label={t('raise.titleField')} withAsterisk maxLength={GRIEVANCE_TITLE_MAX} value={title} onChange={(e) => setTitle(e.currentTarget.value)} />
        <Textarea label={t('raise.text')} withAsterisk autosize minRows={4} maxLength={GRIEVANCE_TEXT_MAX} value={text} onChange={(e) => setText(e.currentTarget.value)} />
        <Button onClick={() => void send()} loading={busy} disabled={!ready} style={{ alignSelf: 'flex-start' }}>
          {t('raise.send')}
        </Button>
      </Stack>
    </Paper>
  );
}

function MyGrievances() {
  const { t } = useTranslation(['grievance', 'common']);
  const query = useMyGrievances();
  return (
    <Stack gap="sm" component="section" aria-labelledby="my-grievances">
      <Title order={2} size="h4" id="my-grievances">
        {t('grievance:mine.title')}
      </Title>
      {query.isPending ? (
        <Center py="md">
          <Loader size="sm" aria-label={t('common:actions.loading')} />
        </Center>
      ) : query.isError ? (
        <Alert color="red" variant="light" title={t('grievance:mine.loadFailed')} role="alert">
          {query.error instanceof ApiError ? query.error.msg : t('common:errors.someError')}
        </Alert>
      ) : query.data.length === 0 ? (
        <Text size="sm">{t('grievance:mine.none')}</Text>
      ) : (
        query.data.map((g) => <GrievanceCard key={g.id} row={g} />)
      )}
    </Stack>
  );
}

/** The signed-in person's grievances (docs/charity.md "Grievances"): raise one, and the list of theirs. */
export default function GrievancesPage() {
  const { t } = useTranslation('grievance');
  return (
    <Container size="sm" py="lg">
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('title')}
        </Title>
        <Text size="sm">{t('intro')}</Text>
        <RaiseForm />
        <MyGrievances />
      </Stack>
    </Container>
  );
}

import { Alert, Anchor, Button, Card, Container, Group, Modal, Paper, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { GRIEVANCE_TEXT_MAX, type GrievanceMessage, type GrievanceView } from '@pm/protocol/grievance';
import { paths } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import { formatDate } from '@/lib/intl-format';
import { notifySuccess } from '@/lib/notify';
import { permissionsOf } from '@/lib/session';
import { assignGrievance, grievanceKeys, postGrievanceMessage, reopenGrievance, resolveGrievance, useGrievance, useGrievanceHandlers } from '../api/grievances';
import { useLang, useNow } from '../hooks/use-lang';
import { mayReopen } from '../lib/grievance-lib';
import { DueText, GrievanceStatusBadge, grievanceTitle } from './grievance-bits';
import { QueryState } from '@/components/query-state';

type Role = 'raiser' | 'staff' | 'reader';

/** Runs a write, then reads the grievance and the lists again; the fetch wrapper shows a refusal. */
function useWrite() {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const run = async (write: () => Promise<unknown>, done: string): Promise<boolean> => {
    setBusy(true);
    try {
      await write();
      notifySuccess(done);
      await client.invalidateQueries({ queryKey: grievanceKeys.all });
      return true;
    } catch {
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

/** What it is about, with a way to it: the campaign's page, or the raiser's donation. */
function Subject({ g, role }: { g: GrievanceView; role: Role }) {
  const { t } = useTranslation('grievance');
  const about = g.reportReason ? t('thread.report', { reason: t(`reportReasons.${g.reportReason}`) }) : t('thread.about', { subject: t(`subjects.${g.subject}`) });
  const link =
    g.subject === 'CAMPAIGN' && g.subjectId
      ? `${paths.campaigns}/${encodeURIComponent(g.subjectId)}`
      : g.subject === 'DONATION' && g.subjectId && role === 'raiser'
        ? `${paths.donations}/${encodeURIComponent(g.subjectId)}`
        : null;
  return (
    <Text size="sm">
      {about}
      {g.subjectId && g.subject !== 'ACCOUNT' && (
        <>
          {' · '}
          {link ? (
            <Anchor component={Link} to={link} size="sm">
              {g.subjectId}
            </Anchor>
          ) : (
            g.subjectId
          )}
        </>
      )}
    </Text>
  );
}

function Message({ m, mine }: { m: GrievanceMessage; mine: boolean }) {
  const { t } = useTranslation('grievance');
  const lang = useLang();
  const who = m.staff ? `${t('thread.trust')} (${m.author?.name ?? ''})` : mine ? t('thread.you') : (m.author?.name ?? t('thread.guest'));
  return (
    <Card withBorder padding="sm" bg={m.staff ? 'var(--mantine-color-teal-light)' : undefined} data-testid="grievance-message" data-staff={m.staff}>
      <Text size="xs" c="dimmed">
        {who} · {formatDate(m.createdAt, lang, 'dateTime')}
      </Text>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
        {m.text}
      </Text>
    </Card>
  );
}

/** Writing to the thread: the raiser's word, or staff's answer (which tells the raiser). */
function Composer({ g, role }: { g: GrievanceView; role: Role }) {
  const { t } = useTranslation('grievance');
  const [text, setText] = useState('');
  const { busy, run } = useWrite();
  const send = async () => {
    if (await run(() => postGrievanceMessage(g.id, text.trim()), t('thread.sent'))) setText('');
  };
  return (
    <Stack gap="xs">
      <Textarea label={role === 'staff' ? t('staff.answer') : t('thread.write')} autosize minRows={3} maxLength={GRIEVANCE_TEXT_MAX} value={text} onChange={(e) => setText(e.currentTarget.value)} />
      <Button onClick={() => void send()} loading={busy} disabled={!text.trim()} style={{ alignSelf: 'flex-start' }}>
        {t('thread.send')}
      </Button>
    </Stack>
  );
}

/** The resolution: its date and note, and for the raiser, reopening within 30 days. */
function Resolution({ g, role }: { g: GrievanceView; role: Role }) {
  const { t } = useTranslation('grievance');
  const lang = useLang();
  const now = useNow();
  const [why, setWhy] = useState('');
  const { busy, run } = useWrite();
  return (
    <Alert color="gray" variant="light" title={t('thread.resolved', { date: formatDate(g.resolvedAt ?? g.updatedAt, lang, 'date') })} data-testid="grievance-resolution">
      <Stack gap="xs">
        {g.resolutionNote && <Text size="sm">{t('thread.note', { note: g.resolutionNote })}</Text>}
        {role === 'raiser' && mayReopen(g, now) && (
          <>
            <Text size="sm">{t('thread.reopenUntil', { date: formatDate(g.reopenUntil!, lang, 'date') })}</Text>
            <Textarea label={t('thread.reopenText')} autosize minRows={2} maxLength={GRIEVANCE_TEXT_MAX} value={why} onChange={(e) => setWhy(e.currentTarget.value)} />
            <Button variant="light" onClick={() => void run(() => reopenGrievance(g.id, why.trim() || undefined), t('thread.reopened'))} loading={busy} style={{ alignSelf: 'flex-start' }}>
              {t('thread.reopen')}
            </Button>
          </>
        )}
      </Stack>
    </Alert>
  );
}

/** Staff: whom it is assigned to, and resolving it with a note the raiser reads. */
function StaffActions({ g }: { g: GrievanceView }) {
  const { t } = useTranslation('grievance');
  const handlers = useGrievanceHandlers(true);
  const [resolving, setResolving] = useState(false);
  const [note, setNote] = useState('');
  const { busy, run } = useWrite();
  const resolve = async () => {
    if (await run(() => resolveGrievance(g.id, note.trim()), t('staff.resolvedDone'))) setResolving(false);
  };
  return (
    <Group align="flex-end" gap="sm" wrap="wrap" data-testid="staff-actions">
      <Select
        label={t('staff.assign')}
        data={(handlers.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
        value={g.owner?.id ?? null}
        onChange={(v) => v && void run(() => assignGrievance(g.id, v), t('staff.assigned'))}
        allowDeselect={false}
        disabled={busy}
        w={{ base: '100%', xs: 220 }}
        comboboxProps={{ withinPortal: false }}
      />
      <Button color="teal" onClick={() => setResolving(true)}>
        {t('staff.resolve')}
      </Button>
      <Modal opened={resolving} onClose={() => setResolving(false)} title={t('staff.resolveTitle')} centered>
        <Stack gap="sm">
          <Textarea label={t('staff.note')} withAsterisk autosize minRows={3} maxLength={GRIEVANCE_TEXT_MAX} value={note} onChange={(e) => setNote(e.currentTarget.value)} data-autofocus />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setResolving(false)}>
              {t('staff.cancel')}
            </Button>
            <Button color="teal" onClick={() => void resolve()} loading={busy} disabled={!note.trim()}>
              {t('staff.resolve')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}

function Thread({ g, role, me }: { g: GrievanceView; role: Role; me: string | null }) {
  const { t } = useTranslation('grievance');
  const lang = useLang();
  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p={{ base: 'sm', xs: 'md' }}>
        <Stack gap={6}>
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <Title order={1} size="h3">
              {grievanceTitle(g, t)}
            </Title>
            <GrievanceStatusBadge status={g.status} />
          </Group>
          <Text size="xs" c="dimmed" data-testid="grievance-number">
            {g.number} · {t('thread.raisedBy', { name: g.raiser?.name ?? t('thread.guest'), date: formatDate(g.createdAt, lang, 'date') })}
          </Text>
          <Subject g={g} role={role} />
          <DueText row={g} />
          {role === 'staff' && <Text size="xs">{g.owner ? t('thread.owner', { name: g.owner.name }) : t('thread.unassigned')}</Text>}
          {role === 'staff' && g.contact && <Text size="xs">{t('thread.contact', { contact: g.contact })}</Text>}
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {g.text}
          </Text>
        </Stack>
      </Paper>
      <Stack gap="xs" component="section" aria-label={t('thread.messages')}>
        {g.messages.length === 0 ? <Text size="sm" c="dimmed">{t('thread.noMessages')}</Text> : g.messages.map((m) => <Message key={m.id} m={m} mine={m.author?.id === me} />)}
      </Stack>
      {g.status === 'RESOLVED' ? <Resolution g={g} role={role} /> : role !== 'reader' && <Composer g={g} role={role} />}
      {role === 'staff' && g.status !== 'RESOLVED' && <StaffActions g={g} />}
    </Stack>
  );
}

/** One grievance (docs/charity.md "Grievances"): its thread for the raiser and for staff, who also assign and resolve it. */
export default function GrievancePage() {
  const { id = '' } = useParams();
  const { t } = useTranslation(['grievance', 'common']);
  const session = useSession();
  const query = useGrievance(id);
  const staff = permissionsOf(session).has('HANDLE_GRIEVANCE');
  const me = session?.id ?? null;
  const role: Role = query.data && query.data.raiser?.id === me ? 'raiser' : staff ? 'staff' : 'reader';
  return (
    <Container size="sm" py="lg">
      <Stack gap="md">
        <Anchor component={Link} to={role === 'staff' ? paths.grievanceQueue : paths.grievances} size="sm">
          {role === 'staff' ? t('grievance:thread.backQueue') : t('grievance:thread.back')}
        </Anchor>
        <QueryState query={query} failedTitle={t('grievance:thread.loadFailed')}>
          {(g) => <Thread g={g} role={role} me={me} />}
        </QueryState>
      </Stack>
    </Container>
  );
}

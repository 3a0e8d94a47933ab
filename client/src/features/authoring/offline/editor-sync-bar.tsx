import { Alert, Badge, Button, Group, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type EditorConflict, type EditorReplica, type EditorSyncState, isSetConflict } from '../../../db/editor-replica';
import type { EdQuestionSetDoc } from '../../../../../sync-protocol/src/sync/ed-question-set';
import { setQuestionIds } from '../../../../../sync-protocol/src/question-set';
import type { EdQuestionDoc } from '../../../../../sync-protocol/src/sync/ed-question';
import { notifySuccess } from '../../../lib/notify';
import { editorReplica, heldElsewhere$ } from './editor-replica-store';

/*
 * What the editor's device has not settled with the server (issue 19 §5): changes saved offline
 * and waiting to upload, questions another editor saved first (both versions side by side, the
 * editor chooses), and changes the server refused (with its message). Shown on the authoring
 * screens; nothing for a learner.
 */

const plain = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

function useOnline() {
  const [online, setOnline] = useState(() => typeof navigator === 'undefined' || navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

/** The editor's replica and its sync state (null until opened, and for non-editors). */
export function useEditorSync(): { replica: EditorReplica | null; state: EditorSyncState; heldElsewhere: boolean } {
  const [replica, setReplica] = useState<EditorReplica | null>(null);
  const [heldElsewhere, setHeldElsewhere] = useState(false);
  useEffect(() => {
    const sub = heldElsewhere$.subscribe(setHeldElsewhere);
    return () => sub.unsubscribe();
  }, []);
  const [state, setState] = useState<EditorSyncState>({ pending: [], conflicts: [], refused: [] });
  useEffect(() => {
    let alive = true;
    let unsubscribe = () => undefined as void;
    editorReplica()
      .then((r) => {
        if (!alive || !r) return;
        setReplica(r);
        const sub = r.state$.subscribe(setState);
        unsubscribe = () => sub.unsubscribe();
      })
      .catch(() => undefined);
    return () => {
      alive = false;
      unsubscribe();
    };
  }, []);
  return { replica, state, heldElsewhere };
}

type Field<D> = { key: string; label: string; value: (d: D) => string };

function ConflictColumn<D>({ title, doc, other, fields }: { title: string; doc: D; other: D; fields: Field<D>[] }) {
  const { t } = useTranslation('authoring-bank');
  return (
    <Stack gap="xs" data-testid="conflict-version">
      <Title order={5}>{title}</Title>
      {fields.map((f) => {
        const differs = f.value(doc) !== f.value(other);
        return (
          <div key={f.key}>
            <Group gap={6}>
              <Text size="sm" fw={600}>
                {f.label}
              </Text>
              {differs && (
                <Badge size="xs" color="orange" variant="light">
                  {t('offline.differs')}
                </Badge>
              )}
            </Group>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {f.value(doc) || '—'}
            </Text>
          </div>
        );
      })}
    </Stack>
  );
}

/** Both versions of one question (or question set) side by side, and the choice. */
export function ConflictDialog({ conflict, onChoose, onClose }: { conflict: EditorConflict | null; onChoose: (choice: 'mine' | 'theirs') => Promise<void>; onClose: () => void }) {
  const { t, i18n } = useTranslation('authoring-bank');
  const [busy, setBusy] = useState(false);
  const setFields: Field<EdQuestionSetDoc>[] = [
    { key: 'l', label: t('offline.set.label'), value: (d) => d.l },
    { key: 'q', label: t('offline.set.questions'), value: (d) => t('offline.set.questionCount', { count: setQuestionIds(d).length }) },
    { key: 'sections', label: t('offline.set.sections'), value: (d) => Object.keys(d.sections).join(', ') },
    { key: 'marks', label: t('offline.set.marks'), value: (d) => t('offline.set.marksValue', { mpq: d.mpq, tm: d.tm, nm: d.nm }) },
    { key: 'dur', label: t('offline.set.duration'), value: (d) => t('offline.set.minutes', { count: d.dur }) },
    {
      key: 'pts',
      label: t('offline.set.publish'),
      value: (d) => (d.draft ? t('offline.set.draft') : new Date(d.pts * 60_000).toLocaleString(i18n.language === 'hi' ? 'hi-IN' : 'en-IN')),
    },
  ];
  const fields: Field<EdQuestionDoc>[] = [
    { key: 'q', label: t('offline.question'), value: (d) => plain(d.q) },
    { key: 'ops', label: t('offline.options'), value: (d) => Object.entries(d.ops).map(([k, v]) => `${k}) ${plain(v)}`).join('\n') },
    { key: 'ca', label: t('offline.answer'), value: (d) => d.ca.map(plain).join(', ') },
    { key: 'd', label: t('offline.difficulty'), value: (d) => d.d },
    { key: 'st', label: t('offline.status'), value: (d) => d.st },
    { key: 'hi', label: t('offline.hindi'), value: (d) => (d.trans.hi ? plain(d.trans.hi.q) : '') },
  ];
  const choose = async (choice: 'mine' | 'theirs') => {
    setBusy(true);
    try {
      await onChoose(choice);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={conflict !== null} onClose={onClose} title={t('offline.conflictTitle')} size="xl">
      {conflict && (
        <Stack>
          <Text size="sm">{isSetConflict(conflict) ? t('offline.conflictHelpSet') : t('offline.conflictHelp')}</Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {isSetConflict(conflict) ? (
              <>
                <ConflictColumn title={t('offline.mine')} doc={conflict.mine} other={conflict.theirs} fields={setFields} />
                <ConflictColumn title={t('offline.theirs')} doc={conflict.theirs} other={conflict.mine} fields={setFields} />
              </>
            ) : (
              <>
                <ConflictColumn title={t('offline.mine')} doc={conflict.mine} other={conflict.theirs} fields={fields} />
                <ConflictColumn title={t('offline.theirs')} doc={conflict.theirs} other={conflict.mine} fields={fields} />
              </>
            )}
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="default" loading={busy} onClick={() => void choose('theirs')}>
              {t('offline.keepTheirs')}
            </Button>
            <Button loading={busy} onClick={() => void choose('mine')}>
              {t('offline.keepMine')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** The bar above the authoring screens. */
export function EditorSyncBar() {
  const { t } = useTranslation('authoring-bank');
  const online = useOnline();
  const { replica, state, heldElsewhere } = useEditorSync();
  const qc = useQueryClient();
  const [open, setOpen] = useState<string | null>(null);
  const [onDevice, setOnDevice] = useState<number | null>(null);
  const [setsOnDevice, setSetsOnDevice] = useState<number | null>(null);
  useEffect(() => {
    if (!replica) return;
    const sub = replica.db.ed_question.count().$.subscribe(setOnDevice);
    const setSub = replica.db.ed_question_set.count().$.subscribe(setSetsOnDevice);
    return () => {
      sub.unsubscribe();
      setSub.unsubscribe();
    };
  }, [replica]);
  const conflict = state.conflicts.find((c) => c.id === open) ?? null;
  if (!replica && heldElsewhere)
    return (
      <Alert color="gray" variant="light" mb="sm" data-testid="editor-bank-elsewhere">
        {t('offline.otherTab')}
      </Alert>
    );
  if (!replica) return null;
  return (
    <Stack gap="xs" mb="sm" data-testid="editor-sync-bar">
      {onDevice !== null && (
        <Text size="xs" c="dimmed" data-testid="editor-on-device">
          {t('offline.onDevice', { count: onDevice })}
          {setsOnDevice !== null && ` · ${t('offline.setsOnDevice', { count: setsOnDevice })}`}
        </Text>
      )}
      {!online && (
        <Alert color="gray" variant="light">
          {t('offline.offline')}
        </Alert>
      )}
      {state.pending.length > 0 && (
        <Alert color="blue" variant="light" data-testid="editor-pending">
          {t('offline.pending', { count: state.pending.length })}
        </Alert>
      )}
      {state.conflicts.length > 0 && (
        <Alert color="orange" variant="light" data-testid="editor-conflicts">
          <Group justify="space-between">
            <Text size="sm">{t(state.conflicts.some(isSetConflict) ? 'offline.conflictsWithSets' : 'offline.conflicts', { count: state.conflicts.length })}</Text>
            <Button size="xs" onClick={() => setOpen(state.conflicts[0]?.id ?? null)}>
              {t('offline.review')}
            </Button>
          </Group>
        </Alert>
      )}
      {state.refused.map((r) => (
        <Alert key={r.id} color="red" variant="light" withCloseButton closeButtonLabel={t('offline.dismiss')} onClose={() => void replica.dismissRefused(r.id)}>
          {t('offline.refused', { msg: r.msg })}
        </Alert>
      ))}
      <ConflictDialog
        conflict={conflict}
        onClose={() => setOpen(null)}
        onChoose={async (choice) => {
          if (!conflict) return;
          await replica.resolveConflict(conflict.id, choice);
          setOpen(null);
          notifySuccess(t('offline.resolved'));
          void qc.invalidateQueries({ queryKey: ['authoring'] });
        }}
      />
    </Stack>
  );
}

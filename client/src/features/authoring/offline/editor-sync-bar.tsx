import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type EditorReplica, type EditorSyncState, isSetConflict } from '@/db/editor/editor-replica';
import { notifySuccess } from '@/lib/notify';
import { ConflictDialog } from './conflict-dialog';
import { editorReplica, heldElsewhere$ } from './editor-replica-store';

/*
 * What the editor's device has not settled with the server (docs/authoring.md "Offline authoring"): changes saved offline
 * and waiting to upload, questions another editor saved first (both versions side by side, the
 * editor chooses), and changes the server refused (with its message). Shown on the authoring
 * screens; nothing for a learner.
 */

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

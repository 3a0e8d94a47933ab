import { Badge, Modal } from '@mantine/core';
import { newAttempt } from '@pm/protocol/sync/test-summary';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setText } from '@pm/protocol/set-text';
import type { QsDetailDoc } from '@pm/protocol/sync/qs-detail';
import type { QuestionSetDoc } from '@pm/protocol/sync/question-set';
import { notifySuccess } from '@/lib/notify';
import { type Attempt, newAttemptId } from '../lib/test-engine';
import { TestDialog } from './test-dialog';

/** An attempt that lives in this component only: never inserted in the replica, never pushed. */
export function previewAttempt(qsid: string, now = Date.now()): Attempt {
  return newAttempt(newAttemptId(), qsid, now);
}

/**
 * A whole set in the real test screen, for an editor (docs/authoring.md "Publishing and unpublishing": "a preview that opens the set
 * in the real test screen without recording an attempt"). The test dialog is the learner's,
 * unchanged; what it writes goes to an attempt held in memory here instead of the replica's
 * journal, and Submit ends the preview ('Preview ended: nothing was recorded') instead of
 * submitting: no attempt, no result, nothing for the replication to send. Lent to the authoring
 * screens through components/preview-context (app/router.tsx).
 */
export default function SetPreviewDialog({ set, detail, onClose }: { set: QuestionSetDoc; detail: QsDetailDoc; onClose: () => void }) {
  const { t, i18n } = useTranslation('authoring-bank');
  const [attempt, setAttempt] = useState(() => previewAttempt(set.id));
  // The newest attempt for the next change (quick taps build on each other, as in the replica).
  const latest = useRef(attempt);

  const write = useCallback(async (_id: string, change: (a: Attempt) => Partial<Attempt>): Promise<boolean> => {
    const current = latest.current;
    if (current.status === 'SUBMITTED') return true;
    const diff = change(current);
    if (Object.keys(diff).length === 0) return true;
    const next: Attempt = { ...current, ...diff, updatedAt: Math.max(Date.now(), current.updatedAt + 1) };
    latest.current = next;
    setAttempt(next);
    return true;
  }, []);

  const onSubmit = useCallback(async () => {
    notifySuccess(t('preview.ended'));
    onClose();
  }, [onClose, t]);

  return (
    <Modal
      opened
      onClose={onClose}
      fullScreen
      withCloseButton={false}
      closeOnClickOutside={false}
      padding={0}
      // Named by its title (an aria-label would go to Mantine's root, not to the dialog); the
      // header is not drawn, the test screen has its own.
      title={t('preview.label', { label: setText(set, i18n.language).l })}
      styles={{ header: { display: 'none' } }}
      transitionProps={{ duration: 0 }}
    >
      <TestDialog set={set} detail={detail} attempt={attempt} write={write} onClose={onClose} onSubmit={onSubmit} />
      {/* The editor always sees that this is a preview (the test screen itself is the learner's). */}
      <Badge color="orange" size="lg" style={{ position: 'fixed', left: 12, bottom: 12, zIndex: 1000, pointerEvents: 'none' }}>
        {t('preview.badge')}
      </Badge>
    </Modal>
  );
}

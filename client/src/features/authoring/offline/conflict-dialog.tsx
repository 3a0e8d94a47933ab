import { Badge, Button, Group, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorConflict } from '@/db/editor/editor-replica';
import { setQuestionIds } from '@pm/protocol/question-set';
import type { EdQuestionDoc } from '@pm/protocol/sync/ed-question';
import type { EdQuestionSetDoc } from '@pm/protocol/sync/ed-question-set';
import { formatDate } from '@/lib/intl-format';

/*
 * Both versions of a question (or question set) side by side, and the editor's choice: for a
 * conflict of the device's replication (the sync bar, editor-sync-bar.tsx) and for a save the
 * server refused because another editor saved first (the question editor's 409; docs/authoring.md,
 * "Two editors at once"). Types only from db/editor/editor-replica: the question editor's chunk does not
 * load RxDB for it.
 */

const plain = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

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
      value: (d) => (d.draft ? t('offline.set.draft') : formatDate(d.pts * 60_000, i18n.language)),
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
          <Text size="sm">{conflict.kind === 'set' ? t('offline.conflictHelpSet') : t('offline.conflictHelp')}</Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {conflict.kind === 'set' ? (
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


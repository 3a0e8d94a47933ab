import { Alert, Badge, Button, Drawer, Group, Loader, Modal, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { QuestionVersionEntry, QuestionView } from '@pm/protocol/question';
import { notifySuccess } from '@/lib/notify';
import { translateServerMessage } from '@/lib/server-messages';
import { getQuestion, useQuestionHistory, useRestoreQuestionVersion } from '../api/questions';
import { type TagKey, tagName, useTags } from '../api/tags';
import classes from './history-drawer.module.css';
import { type FieldChange, htmlToText, versionChanges } from './version-diff';
import { wordDiff } from './word-diff';
import { useFormatDate } from '@/hooks/use-format-date';

/**
 * A question's history (docs/authoring.md): every version with what was done, by whom and when; the
 * chosen one shown as a readable diff against the version before it; Restore (confirmed) makes
 * its content the newest version and reloads the form.
 */
export function HistoryDrawer({
  id,
  opened,
  onClose,
  dirty,
  onRestored,
}: {
  id: string;
  opened: boolean;
  onClose: () => void;
  /** Unsaved edits, which a restore replaces: the confirmation says so. */
  dirty: boolean;
  onRestored: (q: QuestionView) => void;
}) {
  const { t } = useTranslation('authoring-editor');
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="lg" title={t('history.title')} closeButtonProps={{ 'aria-label': t('actions.close') }}>
      {opened && <HistoryBody id={id} dirty={dirty} onRestored={onRestored} />}
    </Drawer>
  );
}

function HistoryBody({ id, dirty, onRestored }: { id: string; dirty: boolean; onRestored: (q: QuestionView) => void }) {
  const { t } = useTranslation(['authoring-editor', 'messages']);
  const history = useQuestionHistory(id);
  const restore = useRestoreQuestionVersion();
  const [selected, setSelected] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  const versions = useMemo(() => [...(history.data ?? [])].sort((a, b) => b.version - a.version), [history.data]);
  const chosen = versions.find((v) => v.version === selected) ?? versions[0];
  // The version before the chosen one (the list is newest first).
  const before = chosen ? versions.find((v) => v.version < chosen.version) : undefined;
  const formatDate = useFormatDate();

  if (history.isPending) return <Loader aria-label={t('actions.loading')} />;
  if (history.isError) return <Alert color="red">{t('history.loadFailed')}</Alert>;
  if (versions.length === 0) return <Text c="dimmed">{t('history.empty')}</Text>;

  const doRestore = async () => {
    if (!chosen) return;
    try {
      const res = await restore.mutateAsync({ id, version: chosen.version });
      notifySuccess(translateServerMessage(res.msg || 'Version restored successfully'));
      onRestored(res.data ?? (await getQuestion(id)).data);
      setConfirming(false);
      setSelected(null);
    } catch {
      // lib/api-client has shown the server's message.
      setConfirming(false);
    }
  };

  const newest = versions[0]?.version;
  return (
    <Stack gap="md">
      <ul className={classes.list} aria-label={t('history.versions')}>
        {versions.map((v) => (
          <li key={v.version}>
            <UnstyledButton
              className={classes.version}
              data-active={v.version === chosen?.version || undefined}
              aria-current={v.version === chosen?.version ? 'true' : undefined}
              onClick={() => setSelected(v.version)}
            >
              <Group gap="xs" wrap="nowrap" justify="space-between">
                <Text fw={600} size="sm">
                  {t('history.version', { n: v.version })}
                </Text>
                <Badge variant="light" size="sm">
                  {v.action === 'RESTORE' && v.restoredFrom ? t('history.restoredFrom', { n: v.restoredFrom }) : t(`history.action.${v.action}`)}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed">
                {t('history.byAt', { name: v.actor.name ?? t('history.unknownActor'), at: formatDate(v.createdAt) })}
              </Text>
            </UnstyledButton>
          </li>
        ))}
      </ul>
      {chosen && (
        <section aria-label={t('history.changesOf', { n: chosen.version })}>
          <Group justify="space-between" mb="xs">
            <Title order={4}>{before ? t('history.changesSince', { n: chosen.version, prev: before.version }) : t('history.firstVersion', { n: chosen.version })}</Title>
            {chosen.version !== newest && (
              <Button size="xs" variant="light" onClick={() => setConfirming(true)}>
                {t('history.restore')}
              </Button>
            )}
          </Group>
          <VersionDiff before={before ?? null} after={chosen} />
        </section>
      )}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('history.confirmTitle', { n: chosen?.version ?? 0 })} centered>
        <Stack gap="sm">
          <Text size="sm">{t('history.confirmText')}</Text>
          {dirty && (
            <Alert color="yellow" role="note">
              {t('history.confirmDirty')}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('actions.cancel')}
            </Button>
            <Button onClick={() => void doRestore()} loading={restore.isPending}>
              {t('history.restore')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** Names of a group's tags in the interface language, by tid. */
function useTagNames(key: TagKey, lang: string) {
  const tags = useTags(key);
  return useMemo(() => new Map((tags.data ?? []).map((tag) => [tag.tid, tagName(tag, lang)])), [tags.data, lang]);
}

function Words({ before, after }: { before: string; after: string }) {
  const { t } = useTranslation('authoring-editor');
  const parts = useMemo(() => wordDiff(before, after), [before, after]);
  return (
    <p className={classes.text}>
      {parts.map((p, i) =>
        p.kind === 'same' ? (
          <span key={i}>{p.text}</span>
        ) : p.kind === 'added' ? (
          <ins key={i} className={classes.added} title={t('history.added')}>
            {p.text}
          </ins>
        ) : (
          <del key={i} className={classes.removed} title={t('history.removed')}>
            {p.text}
          </del>
        ),
      )}
    </p>
  );
}

function VersionDiff({ before, after }: { before: QuestionVersionEntry | null; after: QuestionVersionEntry }) {
  const { t, i18n } = useTranslation('authoring-editor');
  const changes = useMemo(() => versionChanges(before?.data ?? null, after.data), [before, after]);
  const lang = i18n.language;
  const names = { c: useTagNames('c', lang), s: useTagNames('s', lang), t: useTagNames('t', lang), e: useTagNames('e', lang) };
  const image = t('history.image');
  const langName = (l: string) => (l === 'en' ? '' : ` (${t(`lang.${l === 'hi' ? 'hi' : 'other'}`, { code: l })})`);
  const mcq = after.data.qt === 'mcq1' || after.data.qt === 'mcq2';
  const answer = (ca: string[]) => (ca.length === 0 ? '—' : mcq ? ca.map((k) => k.toUpperCase()).join(', ') : ca.join(' | '));
  const value = (c: Extract<FieldChange, { kind: 'value' }>, v: string | null) => {
    if (v === null || v === '') return '—';
    if (c.field === 'qt') return t(`type.${v as 'mcq1'}`);
    if (c.field === 'd') return t(`difficulty.${v as '1'}`);
    if (c.field === 'st') return t(`status.${v as 'PENDING'}`);
    if (c.field === 's') return names.s.get(v) ?? v;
    return v;
  };

  if (changes.length === 0) return <Text c="dimmed">{t('history.noChanges')}</Text>;
  return (
    <dl className={classes.changes}>
      {changes.map((c, i) => {
        let label: string;
        let body: React.ReactNode;
        if (c.kind === 'text') {
          label = (c.part === 'op' ? t('form.option', { key: c.key.toUpperCase() }) : c.part === 'expl' ? t('form.explanation') : t('form.question')) + langName(c.lang);
          body = <Words before={htmlToText(c.before, image)} after={htmlToText(c.after, image)} />;
        } else if (c.kind === 'answer') {
          label = t('form.correctAnswer') + langName(c.lang);
          body = <Words before={answer(c.before)} after={answer(c.after)} />;
        } else if (c.kind === 'value') {
          label = t(`history.field.${c.field}`);
          body = <Words before={value(c, c.before)} after={value(c, c.after)} />;
        } else {
          label = t(`tags.group.${c.field}`);
          body = (
            <p className={classes.text}>
              {c.added.map((tid) => (
                <ins key={`+${tid}`} className={`${classes.added} ${classes.tagItem}`} title={t('history.added')}>
                  {names[c.field].get(tid) ?? tid}
                </ins>
              ))}
              {c.removed.map((tid) => (
                <del key={`-${tid}`} className={`${classes.removed} ${classes.tagItem}`} title={t('history.removed')}>
                  {names[c.field].get(tid) ?? tid}
                </del>
              ))}
            </p>
          );
        }
        return (
          <div key={i} className={classes.change}>
            <dt>{label}</dt>
            <dd>{body}</dd>
          </div>
        );
      })}
    </dl>
  );
}

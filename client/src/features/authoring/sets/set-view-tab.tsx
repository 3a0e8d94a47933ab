import { partMarks } from '@pm/protocol/set-text';
import { Alert, Badge, Button, Card, Center, Group, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { IconCheck, IconPlayerPlay } from '@tabler/icons-react';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_EXAM_SECONDS } from '@pm/protocol/question-set';
import { usePreviews } from '@/components/preview-context';
import { RichHtml } from '@/components/rich-html';
import { useSetPreview } from '../api/sets';
import { optionLetter, STATUS_COLOR } from '../list/question-list';
import { usePartTitle } from './questions-tab';
import { formParts, formQuestionIds, num, type SetForm } from './set-form';
import { useSetQuestions } from './use-set-questions';
import { TranslateSetButton } from './translate-set-button';
import { useFormatDate } from '@/hooks/use-format-date';

/**
 * The preview (docs/authoring.md "Publishing and unpublishing"): the saved set and its questions as a learner's device would hold
 * them (GET previewQuestionSet, drafts included), run in the real test screen, lent by the exams
 * feature (components/preview-context). Nothing is recorded.
 */
function PreviewRunner({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation('authoring-bank');
  const { SetPreview } = usePreviews();
  const preview = useSetPreview(id);
  const waiting = (
    <Modal opened onClose={onClose} title={t('view.preview')} centered>
      {preview.isError ? (
        <Alert color="red">{t('view.previewFailed')}</Alert>
      ) : (
        <Center py="lg">
          <Loader aria-label={t('view.previewLoading')} />
        </Center>
      )}
    </Modal>
  );
  if (!preview.data) return waiting;
  return (
    <Suspense fallback={waiting}>
      <SetPreview set={preview.data.set} detail={preview.data.detail} onClose={onClose} />
    </Suspense>
  );
}

/**
 * The Question Set View tab: the set as it stands in the form, read only — its parts with their
 * marks, negative marking, duration, instructions and every question's text and options in test
 * order — and Preview, which opens the saved set in the test screen.
 */
export function SetViewTab({ form, dirty }: { form: SetForm; dirty: boolean }) {
  const { t, i18n } = useTranslation('authoring-bank');
  const partTitle = usePartTitle();
  const [previewing, setPreviewing] = useState(false);
  const parts = formParts(form);
  const { byId, loading } = useSetQuestions(formQuestionIds(form));
  const locale = i18n.language === 'hi' ? 'hi-IN' : 'en-IN';
  const marks = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const formatDate = useFormatDate();
  // What learners are shown: every part's questions × its marks (docs/authoring.md "Total marks").
  const total = parts.reduce((a, p) => a + partMarks(p.q.length, p.mpq), 0);
  const minutes = num(form.dur) > 0 ? Math.trunc(num(form.dur)) : DEFAULT_EXAM_SECONDS / 60;
  // Questions are numbered across the whole test, as the test screen numbers them.
  const firstNumber = parts.map((_, i) => parts.slice(0, i).reduce((a, p) => a + p.q.length, 0) + 1);

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={3}>{form.l || t('view.untitled')}</Title>
          {form.lHi.trim() && (
            <Text lang="hi" c="dimmed">
              {form.lHi}
            </Text>
          )}
          <Group gap="xs">
            <Badge variant="light">{form.isM ? t('list.mock') : t('list.practice')}</Badge>
            {form.free && (
              <Badge color="green" variant="light">
                {t('list.free')}
              </Badge>
            )}
            {form.langs.map((l) => (
              <Badge key={l} variant="outline">
                {t(`langs.${l}`)}
              </Badge>
            ))}
          </Group>
        </Stack>
        <Stack gap={4} align="flex-end">
          <Button leftSection={<IconPlayerPlay size={16} aria-hidden />} disabled={!form.id} onClick={() => setPreviewing(true)}>
            {t('view.preview')}
          </Button>
          <Text size="xs" c="dimmed" maw={280} ta="right">
            {!form.id ? t('view.saveFirst') : dirty ? t('view.savedOnly') : t('view.previewHint')}
          </Text>
          <TranslateSetButton qids={formQuestionIds(form)} />
        </Stack>
      </Group>
      <Group gap="xl">
        <Text>
          {t('view.totalMarks')}: <strong>{marks.format(total)}</strong>
        </Text>
        <Text>
          {t('view.duration')}: <strong>{t(num(form.dur) > 0 ? 'view.minutes' : 'view.minutesDefault', { n: minutes })}</strong>
        </Text>
        <Text>
          {t('view.publish')}: <strong>{formatDate(form.pts * 60_000)}</strong>
        </Text>
      </Group>
      <Table.ScrollContainer minWidth={520}>
        <Table withTableBorder striped aria-label={t('view.parts')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('view.part')}</Table.Th>
              <Table.Th>{t('view.questions')}</Table.Th>
              <Table.Th>{t('form.mpq')}</Table.Th>
              <Table.Th>{t('form.nm')}</Table.Th>
              <Table.Th>{t('form.tm')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {parts.map((p) => (
              <Table.Tr key={p.key}>
                <Table.Td>
                  {partTitle(p)}
                  {p.q.length === 0 && (
                    <Text size="xs" c="dimmed">
                      {t('view.hiddenEmpty')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{t('questions.count', { n: p.q.length, allowed: p.allowed })}</Table.Td>
                <Table.Td>{marks.format(p.mpq)}</Table.Td>
                <Table.Td>{marks.format(p.nm)}</Table.Td>
                <Table.Td>{marks.format(partMarks(p.q.length, p.mpq))}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Stack gap={4}>
        <Title order={4}>{t('form.inst')}</Title>
        {form.inst ? <RichHtml html={form.inst} /> : <Text c="dimmed">{t('view.noInstructions')}</Text>}
      </Stack>
      {parts.map((p, pi) =>
        p.q.length === 0 ? null : (
          <Card key={p.key} withBorder padding="sm" component="section" aria-label={partTitle(p)}>
            <Title order={4} mb="xs">
              {partTitle(p)}
            </Title>
            <Stack gap="sm">
              {p.q.map((id, qi) => {
                const n = firstNumber[pi]! + qi;
                const q = byId.get(id);
                const keys = q ? Object.keys(q.ops) : [];
                return (
                  <Stack key={id} gap={4}>
                    <Group gap="xs" align="flex-start" wrap="nowrap">
                      <Text fw={600}>{t('view.questionN', { n })}</Text>
                      {q && q.st !== 'APPROVED' && (
                        <Badge size="xs" variant="light" color={STATUS_COLOR[q.st]}>
                          {t(`status.${q.st}`)}
                        </Badge>
                      )}
                    </Group>
                    {q ? (
                      <>
                        <RichHtml html={q.q} />
                        {keys.map((k) => (
                          <Group key={k} gap={6} wrap="nowrap" align="flex-start" pl="sm">
                            <Text fw={600} size="sm">
                              {optionLetter(keys, k)}.
                            </Text>
                            <RichHtml html={q.ops[k] ?? ''} inline />
                            {q.ca.includes(k) && <IconCheck size={16} color="var(--mantine-color-green-7)" aria-label={t('view.correct')} />}
                          </Group>
                        ))}
                        {keys.length === 0 && q.ca.length > 0 && (
                          <Text size="sm" pl="sm">
                            {t('columns.ca')}: {q.ca.join(' | ')}
                          </Text>
                        )}
                      </>
                    ) : loading ? (
                      <Loader size="xs" />
                    ) : (
                      <Text size="sm" c="red">
                        {t('questions.missing', { id })}
                      </Text>
                    )}
                  </Stack>
                );
              })}
            </Stack>
          </Card>
        ),
      )}
      {previewing && form.id && <PreviewRunner id={form.id} onClose={() => setPreviewing(false)} />}
    </Stack>
  );
}

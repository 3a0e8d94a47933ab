import { Alert, Badge, Button, Checkbox, Container, FileInput, Group, List, SegmentedControl, Select, Stack, Switch, Table, Tabs, Text, Title } from '@mantine/core';
import { IconDownload, IconFileImport } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { MSG } from '@pm/protocol/messages';
import { ApiError } from '@/lib/api-client';
import { notifySuccess, notifyWarning } from '@/lib/notify';
import {
  IMPORT_FORMATS,
  IMPORT_MAX_BYTES,
  type ImportFormat,
  type ImportIssue,
  type ImportPreview,
  type ImportPreviewRow,
  type ImportResult,
} from '@pm/protocol/question-import';
import { downloadFile } from '@/lib/download-file';
import { exportQuestions, usePreviewImport, useStoreImport } from '../api/import';
import { useQuestionSetList } from '../api/sets';
import { QuestionList } from '../list/question-list';
import { useFormatDate } from '@/hooks/use-format-date';

/** Rows drawn at once: a 5,000-row file is summarised, its problem rows listed. */
const SHOWN = 500;

type T = TFunction<'authoring-import'>;

/** A row's issue in the reader's language (sync-protocol IMPORT_ISSUE_CODES). */
export function issueText(t: T, i: ImportIssue): string {
  const p = i.params ?? {};
  switch (i.code) {
    case 'unsupportedType':
      if (p.type === 'matching') return t('issues.unsupportedMatching');
      if (p.type === 'description') return t('issues.unsupportedDescription');
      return t('issues.unsupportedType', { type: String(p.type ?? '') });
    case 'unknownTag':
      return t('issues.unknownTag', { name: String(p.name ?? ''), group: p.group ? t(`groups.${p.group as 'c' | 's' | 't' | 'e'}`) : '' });
    default: {
      // Every code has its key (issues.<code>, checked by the locale test); its parameters vary by code.
      const byCode = t as unknown as (key: `issues.${typeof i.code}`, params: Record<string, string | number>) => string;
      return byCode(`issues.${i.code}`, p);
    }
  }
}

/** The file as UTF-8 text (FileReader: also where Blob.text() is missing, as in jsdom). */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsText(file, 'utf-8');
  });
}

/** Server messages that name what they refuse after the text ("Unknown column in the file: colour"). */
const NAMING = ['importUnknownColumn', 'importMissingColumn'] as const;

/** A refusal of the whole file in the reader's language, the column names kept. */
function fileProblem(t: TFunction<'messages'>, msg: string): string {
  for (const key of NAMING) {
    if (msg.startsWith(`${MSG[key]} `)) return `${t(key)}${msg.slice(MSG[key].length)}`;
  }
  return msg;
}

const formatOf = (name: string, current: ImportFormat): ImportFormat => (/\.csv$/i.test(name) ? 'csv' : /\.gift(\.txt)?$/i.test(name) ? 'gift' : current);

function PreviewTable({ rows }: { rows: ImportPreviewRow[] }) {
  const { t } = useTranslation('authoring-import');
  return (
    <Table striped withTableBorder aria-label={t('table.label')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={70}>{t('table.row')}</Table.Th>
          <Table.Th w={150}>{t('table.type')}</Table.Th>
          <Table.Th>{t('table.question')}</Table.Th>
          <Table.Th>{t('table.problems')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.n} data-row={r.n} data-state={r.errors.length ? 'error' : 'ok'}>
            <Table.Td>{r.n}</Table.Td>
            <Table.Td>{t(`types.${r.qt ?? 'unknown'}`)}</Table.Td>
            <Table.Td>
              {r.title && (
                <Text size="xs" c="dimmed">
                  {r.title}
                </Text>
              )}
              <Text size="sm">{r.text}</Text>
            </Table.Td>
            <Table.Td>
              {r.errors.length === 0 && r.warnings.length === 0 && r.duplicateOf === undefined && r.duplicateOfRow === undefined && (
                <Badge color="green" variant="light">
                  {t('table.ok')}
                </Badge>
              )}
              <List size="sm" spacing={2}>
                {r.errors.map((e, i) => (
                  <List.Item key={`e${i}`} c="red">
                    {issueText(t, e)}
                  </List.Item>
                ))}
                {r.duplicateOf !== undefined && <List.Item c="orange">{t('table.duplicateOf')}</List.Item>}
                {r.duplicateOfRow !== undefined && <List.Item c="orange">{t('table.duplicateOfRow', { row: r.duplicateOfRow })}</List.Item>}
                {r.warnings.map((w, i) => (
                  <List.Item key={`w${i}`} c="dimmed">
                    {issueText(t, w)}
                  </List.Item>
                ))}
              </List>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function ImportTab() {
  const { t } = useTranslation('authoring-import');
  const { t: tm } = useTranslation('messages');
  const [format, setFormat] = useState<ImportFormat>('csv');
  const [file, setFile] = useState<File | null>(null);
  const [content, setContent] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [onlyProblems, setOnlyProblems] = useState(false);
  const [skipDuplicates, setSkipDuplicates] = useState(true);
  const [result, setResult] = useState<ImportResult | null>(null);
  const check = usePreviewImport();
  const store = useStoreImport();

  const reset = () => {
    setPreview(null);
    setContent(null);
    setProblem(null);
  };
  const choose = (f: File | null) => {
    setFile(f);
    setResult(null);
    reset();
    if (f) setFormat(formatOf(f.name, format));
  };
  const runCheck = async () => {
    if (!file) return;
    setResult(null);
    reset();
    if (file.size > IMPORT_MAX_BYTES) {
      setProblem(t('import.tooLarge'));
      return;
    }
    const text = await readText(file);
    check.mutate(
      { fileName: file.name, format, content: text },
      {
        onSuccess: (r) => {
          setContent(text);
          setPreview(r.data);
        },
        onError: (e) => setProblem(e instanceof ApiError ? fileProblem(tm, e.msg) : String(e)),
      },
    );
  };
  const runStore = (mode: 'valid' | 'all') => {
    if (!file || content === null) return;
    store.mutate(
      { fileName: file.name, format, content, mode, skipDuplicates },
      {
        onSuccess: (r) => {
          setResult(r);
          reset();
          setFile(null);
          notifySuccess(t('import.stored', { stored: r.stored, skipped: r.skipped }));
        },
        onError: (e) => setProblem(e instanceof ApiError ? e.msg : String(e)),
      },
    );
  };

  const formatDate = useFormatDate();
  const rows = preview ? (onlyProblems ? preview.rows.filter((r) => r.errors.length || r.warnings.length || r.duplicateOf || r.duplicateOfRow) : preview.rows) : [];
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('import.help')}
      </Text>
      <Group align="end">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="import-format">
            {t('import.format')}
          </Text>
          <SegmentedControl
            aria-labelledby="import-format"
            value={format}
            onChange={(v) => {
              setFormat(v as ImportFormat);
              reset();
            }}
            data={IMPORT_FORMATS.map((f) => ({ value: f, label: t(`formats.${f}`) }))}
          />
        </Stack>
        <FileInput label={t('import.file')} placeholder={t('import.filePlaceholder')} value={file} onChange={choose} accept=".csv,.txt,.gift,text/csv,text/plain" w={280} clearable />
        <Button leftSection={<IconFileImport size={16} aria-hidden />} onClick={() => void runCheck()} disabled={!file} loading={check.isPending}>
          {t('import.check')}
        </Button>
        <Button variant="subtle" leftSection={<IconDownload size={16} aria-hidden />} onClick={() => void downloadFile('/question/import/template.csv').catch(() => undefined)}>
          {t('import.template')}
        </Button>
      </Group>
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      {result && (
        <Alert color="green" role="status">
          <Group justify="space-between">
            <Text size="sm">{t('import.stored', { stored: result.stored, skipped: result.skipped })}</Text>
            <Button component={Link} to={paths.questionList} variant="light" size="xs">
              {t('import.toList')}
            </Button>
          </Group>
        </Alert>
      )}
      {preview && (
        <Stack>
          {preview.importedBefore && (
            <Alert color="orange">
              {t('import.importedBefore', {
                date: formatDate(preview.importedBefore.at),
                stored: preview.importedBefore.stored,
              })}
            </Alert>
          )}
          <Text fw={500} data-testid="import-summary">
            {t('import.summary', preview.counts)}
          </Text>
          <Group>
            <Switch label={t('import.onlyProblems')} checked={onlyProblems} onChange={(e) => setOnlyProblems(e.currentTarget.checked)} />
            <Checkbox label={t('import.skipDuplicates')} checked={skipDuplicates} onChange={(e) => setSkipDuplicates(e.currentTarget.checked)} />
          </Group>
          <Group>
            <Button onClick={() => runStore('valid')} disabled={preview.counts.valid === 0} loading={store.isPending}>
              {t('import.storeValid')}
            </Button>
            <Button variant="light" onClick={() => runStore('all')} disabled={preview.counts.invalid > 0} loading={store.isPending}>
              {t('import.storeAll')}
            </Button>
            <Button variant="default" onClick={() => choose(null)}>
              {t('import.storeNothing')}
            </Button>
          </Group>
          {rows.length > SHOWN && (
            <Text size="sm" c="dimmed">
              {t('import.shown', { shown: SHOWN, rows: rows.length })}
            </Text>
          )}
          <PreviewTable rows={rows.slice(0, SHOWN)} />
        </Stack>
      )}
    </Stack>
  );
}

function ExportTab() {
  const { t } = useTranslation('authoring-import');
  const sets = useQuestionSetList();
  const [format, setFormat] = useState<ImportFormat>('csv');
  const [setId, setSetId] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const run = async (what: { qids: string[] } | { qsid: string }) => {
    setBusy(true);
    try {
      const skipped = await exportQuestions(format, what);
      if (skipped > 0) notifyWarning(t('export.skipped', { n: skipped }));
      else notifySuccess(t('export.done'));
    } catch {
      // Shown by downloadFile.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack>
      <Stack gap={4}>
        <Text size="sm" fw={500} id="export-format">
          {t('export.format')}
        </Text>
        <SegmentedControl aria-labelledby="export-format" value={format} onChange={(v) => setFormat(v as ImportFormat)} data={IMPORT_FORMATS.map((f) => ({ value: f, label: t(`formats.${f}`) }))} />
      </Stack>
      <Group align="end">
        <Select
          label={t('export.set')}
          placeholder={t('export.setPlaceholder')}
          data={(sets.data ?? []).map((s) => ({ value: s.id, label: s.l }))}
          value={setId}
          onChange={setSetId}
          searchable
          w={320}
        />
        <Button leftSection={<IconDownload size={16} aria-hidden />} disabled={!setId} loading={busy} onClick={() => setId && void run({ qsid: setId })}>
          {t('export.exportSet')}
        </Button>
      </Group>
      <Group justify="space-between">
        <Text size="sm">{t('export.choose')}</Text>
        <Button leftSection={<IconDownload size={16} aria-hidden />} disabled={chosen.length === 0} loading={busy} onClick={() => void run({ qids: chosen })}>
          {t('export.exportChosen', { n: chosen.length })}
        </Button>
      </Group>
      <QuestionList selection={{ selected: chosen, allowed: 1000, partName: null, onChange: setChosen }} />
    </Stack>
  );
}

/** /question-import (docs/authoring.md "Import and export"): import a file (preview first, then store) and export questions. */
export default function ImportExportPage() {
  const { t } = useTranslation('authoring-import');
  return (
    <Container size="xl" py="lg">
      <Stack>
        <Title order={2}>{t('title')}</Title>
        <Tabs defaultValue="import" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="import">{t('tabs.import')}</Tabs.Tab>
            <Tabs.Tab value="export">{t('tabs.export')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="import" pt="md">
            <ImportTab />
          </Tabs.Panel>
          <Tabs.Panel value="export" pt="md">
            <ExportTab />
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </Container>
  );
}

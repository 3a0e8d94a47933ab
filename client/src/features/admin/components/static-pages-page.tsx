import { Alert, Badge, Button, Group, Loader, Paper, SegmentedControl, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STATIC_PAGE_KEYS, STATIC_PAGE_LANGS, type StaticPage, type StaticPageKey, type StaticPageLang } from '@pm/protocol/static-page';
import { useFormatDate } from '@/hooks/use-format-date';
import { useLeaveGuard } from '@/hooks/use-leave-guard';
import { notifySuccess } from '@/lib/notify';
import { translateServerMessage } from '@/lib/server-messages';
import { builtInPageHtml } from '@/lib/static-page-built-in';
import { useStaticPageVersions } from '../api/get-static-page-versions';
import { useStaticPages } from '../api/get-static-pages';
import { useRestoreStaticPage, useSaveStaticPage } from '../api/save-static-page';
import { ConfirmDiscard } from './confirm-delete';
import { HtmlEditor } from './html-editor';

type Drafts = Partial<Record<`${StaticPageKey}:${StaticPageLang}`, string>>;

const LANG_LABEL = { en: 'admin:common.english', hi: 'admin:common.hindi' } as const;

/**
 * Admin: Static pages (docs/admin.md) — the About, FAQ, Terms and Privacy texts. Each language
 * is edited, saved and versioned on its own: the editor starts from the language's current text
 * (the built-in text while it has none of its own), Save writes only that language, and every
 * earlier version can be restored. A language without text of its own keeps its built-in page
 * on the public site, whatever the other language has.
 */
export default function StaticPagesPage() {
  const { t } = useTranslation(['admin-content', 'admin']);
  const pages = useStaticPages();
  const [key, setKey] = useState<StaticPageKey>('about');
  const [lang, setLang] = useState<StaticPageLang>('en');
  const [drafts, setDrafts] = useState<Drafts>({});
  const [pendingKey, setPendingKey] = useState<StaticPageKey | null>(null);
  const saved = pages.data?.find((p) => p.key === key) ?? null;
  const dirty = Object.keys(drafts).length > 0;
  const leave = useLeaveGuard(dirty);

  const switchTo = (k: StaticPageKey) => {
    if (dirty) setPendingKey(k);
    else setKey(k);
  };
  const setDraft = (l: StaticPageLang, html: string | undefined) =>
    setDrafts((d) => {
      const next = { ...d };
      if (html === undefined) delete next[`${key}:${l}`];
      else next[`${key}:${l}`] = html;
      return next;
    });

  return (
    <Stack>
      <Title order={2}>{t('pages.title')}</Title>
      <SegmentedControl
        aria-label={t('pages.choose')}
        value={key}
        onChange={(v) => switchTo(v as StaticPageKey)}
        data={STATIC_PAGE_KEYS.map((k) => ({ value: k, label: t(`pages.keys.${k}`) }))}
        style={{ alignSelf: 'flex-start', maxWidth: '100%' }}
      />
      {pages.isPending && <Loader aria-label={t('admin:common.loading')} />}
      {pages.isError && <Alert color="red">{t('admin:common.loadFailed')}</Alert>}
      {pages.isSuccess && (
        <Tabs value={lang} onChange={(v) => v && setLang(v as StaticPageLang)} keepMounted={false}>
          <Tabs.List>
            {STATIC_PAGE_LANGS.map((l) => (
              <Tabs.Tab key={l} value={l} lang={l}>
                {t(LANG_LABEL[l])}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {STATIC_PAGE_LANGS.map((l) => (
            <Tabs.Panel key={l} value={l} pt="xs">
              <LanguageEditor
                key={`${key}-${l}`}
                pageKey={key}
                lang={l}
                page={saved}
                draft={drafts[`${key}:${l}`]}
                onDraft={(html) => setDraft(l, html)}
              />
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
      <ConfirmDiscard
        opened={pendingKey !== null || leave.asking}
        onDiscard={() => {
          if (leave.asking) leave.discard();
          if (pendingKey) {
            setKey(pendingKey);
            setDrafts({});
          }
          setPendingKey(null);
        }}
        onClose={() => {
          leave.stay();
          setPendingKey(null);
        }}
      />
    </Stack>
  );
}

/** One language of one page: its editor, Save and Reset, and its versions. */
function LanguageEditor({
  pageKey,
  lang,
  page,
  draft,
  onDraft,
}: {
  pageKey: StaticPageKey;
  lang: StaticPageLang;
  page: StaticPage | null;
  draft: string | undefined;
  onDraft: (html: string | undefined) => void;
}) {
  const { t } = useTranslation(['admin-content', 'admin']);
  const formatDate = useFormatDate();
  const save = useSaveStaticPage();
  const own = page?.content[lang].trim() ? page.content[lang] : null;
  const version = page?.version[lang] ?? 0;
  const builtIn = useQuery({ queryKey: ['static-page-built-in', pageKey, lang], queryFn: () => builtInPageHtml(pageKey, lang), enabled: own === null, staleTime: Infinity });
  const base = own ?? builtIn.data ?? null;
  const current = draft ?? base ?? '';
  const changed = draft !== undefined && draft !== base;
  const versions = useStaticPageVersions(pageKey, lang);
  const latest = versions.data?.[0];

  const submit = async () => {
    try {
      const r = await save.mutateAsync({ key: pageKey, lang, html: current, baseVersion: version });
      notifySuccess(translateServerMessage(r.msg));
      onDraft(undefined);
    } catch {
      // api() has shown the message.
    }
  };
  const pageName = t(`pages.keys.${pageKey}`);
  const langName = t(LANG_LABEL[lang]);

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed" data-testid="static-page-status">
        {own !== null
          ? t('pages.updated', { version, when: latest && latest.version === version ? formatDate(latest.createdAt) : formatDate(page!.updatedAt), lang: langName })
          : t('pages.builtIn', { lang: langName })}
      </Text>
      {base === null ? (
        builtIn.isError ? (
          <Alert color="red">{t('admin:common.loadFailed')}</Alert>
        ) : (
          <Loader aria-label={t('admin:common.loading')} />
        )
      ) : (
        <HtmlEditor lang={lang} label={t('pages.editorLabel', { page: pageName, lang: langName })} value={current} onChange={(html) => onDraft(html === base ? undefined : html)} />
      )}
      <Group>
        <Button onClick={() => void submit()} disabled={!changed || !current.trim()} loading={save.isPending}>
          {t('pages.save', { lang: langName })}
        </Button>
        <Button variant="default" disabled={!changed} onClick={() => onDraft(undefined)}>
          {t('admin:common.reset')}
        </Button>
      </Group>
      <VersionList pageKey={pageKey} lang={lang} version={version} disabled={changed} />
    </Stack>
  );
}

/** A language's saved versions, newest first; any but the newest can be restored. */
function VersionList({ pageKey, lang, version, disabled }: { pageKey: StaticPageKey; lang: StaticPageLang; version: number; disabled: boolean }) {
  const { t } = useTranslation(['admin-content', 'admin']);
  const formatDate = useFormatDate();
  const versions = useStaticPageVersions(pageKey, lang);
  const restore = useRestoreStaticPage();
  const [restoring, setRestoring] = useState<number | null>(null);

  const run = async (v: number) => {
    setRestoring(v);
    try {
      const r = await restore.mutateAsync({ key: pageKey, lang, version: v, baseVersion: version });
      notifySuccess(translateServerMessage(r.msg));
    } catch {
      // api() has shown the message.
    } finally {
      setRestoring(null);
    }
  };

  if (versions.isPending) return null;
  if (versions.isError) return <Alert color="red">{t('admin:common.loadFailed')}</Alert>;
  return (
    <Paper withBorder p="sm" radius="md" component="section" aria-labelledby="static-page-versions">
      <Title order={3} size="h5" id="static-page-versions" mb="xs">
        {t('pages.versions.title', { lang: t(LANG_LABEL[lang]) })}
      </Title>
      {versions.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('pages.versions.none')}
        </Text>
      ) : (
        <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {versions.data.map((v) => (
            <Group key={v.version} component="li" justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={0}>
                <Group gap="xs">
                  <Text size="sm" fw={600}>
                    {t('pages.versions.version', { version: v.version })}
                  </Text>
                  {v.version === version && (
                    <Badge size="sm" variant="light">
                      {t('pages.versions.current')}
                    </Badge>
                  )}
                </Group>
                <Text size="xs" c="dimmed">
                  {[
                    formatDate(v.createdAt),
                    v.actorName ?? t('pages.versions.unknownActor'),
                    v.action === 'RESTORE' && v.restoredFrom !== null ? t('pages.versions.restoredFrom', { version: v.restoredFrom }) : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Text>
              </Stack>
              {v.version !== version && (
                <Button
                  size="compact-sm"
                  variant="light"
                  disabled={disabled || (restoring !== null && restoring !== v.version)}
                  loading={restoring === v.version}
                  onClick={() => void run(v.version)}
                  aria-label={t('pages.versions.restoreLabel', { version: v.version })}
                >
                  {t('pages.versions.restore')}
                </Button>
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

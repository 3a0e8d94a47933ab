import { Alert, Button, Group, Loader, SegmentedControl, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STATIC_PAGE_KEYS, type StaticPageKey } from '../../../../../sync-protocol/src/static-page';
import { notifySuccess } from '../../../lib/notify';
import { translateServerMessage } from '../../../lib/server-messages';
import { useStaticPages } from '../api/get-static-pages';
import { useSaveStaticPage } from '../api/save-static-page';
import { useLeaveGuard } from '../../../hooks/use-leave-guard';
import { ConfirmDiscard } from './confirm-delete';
import { HtmlEditor } from './html-editor';

type Content = { en: string; hi: string };

/**
 * Admin: Static pages — the About, FAQ, Terms and Privacy texts in English and Hindi. A page
 * never saved here shows its built-in text on the public site; once saved, the public page
 * shows this text (in the reader's language, or the other one when only one is written).
 */
export default function StaticPagesPage() {
  const { t, i18n } = useTranslation(['admin-content', 'admin']);
  const pages = useStaticPages();
  const save = useSaveStaticPage();
  const [key, setKey] = useState<StaticPageKey>('about');
  const [draft, setDraft] = useState<Content | null>(null);
  const [pendingKey, setPendingKey] = useState<StaticPageKey | null>(null);
  const saved = pages.data?.find((p) => p.key === key) ?? null;
  const base: Content = saved?.content ?? { en: '', hi: '' };
  const current = draft ?? base;
  const dirty = draft !== null && (draft.en !== base.en || draft.hi !== base.hi);
  const leave = useLeaveGuard(dirty);

  const switchTo = (k: StaticPageKey) => {
    if (dirty) setPendingKey(k);
    else {
      setKey(k);
      setDraft(null);
    }
  };
  const submit = async () => {
    try {
      const r = await save.mutateAsync({ key, content: current });
      notifySuccess(translateServerMessage(r.msg));
      setDraft(null);
    } catch {
      // api() has shown the message.
    }
  };
  const fmt = new Intl.DateTimeFormat(i18n.language === 'hi' ? 'hi-IN' : 'en-IN', { dateStyle: 'medium', timeStyle: 'short' });

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
        <>
          <Text size="sm" c="dimmed">
            {saved ? t('pages.updated', { when: fmt.format(saved.updatedAt) }) : t('pages.builtIn')}
          </Text>
          <Tabs defaultValue="en" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="en">{t('admin:common.english')}</Tabs.Tab>
              <Tabs.Tab value="hi">{t('admin:common.hindi')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="en" pt="xs">
              <HtmlEditor key={`${key}-en`} lang="en" label={t('pages.editorLabel', { page: t(`pages.keys.${key}`), lang: t('admin:common.english') })} value={current.en} onChange={(en) => setDraft({ ...current, en })} />
            </Tabs.Panel>
            <Tabs.Panel value="hi" pt="xs">
              <HtmlEditor key={`${key}-hi`} lang="hi" label={t('pages.editorLabel', { page: t(`pages.keys.${key}`), lang: t('admin:common.hindi') })} value={current.hi} onChange={(hi) => setDraft({ ...current, hi })} />
            </Tabs.Panel>
          </Tabs>
          <Group>
            <Button onClick={() => void submit()} disabled={!dirty || (!current.en.trim() && !current.hi.trim())} loading={save.isPending}>
              {t('admin:common.save')}
            </Button>
            <Button variant="default" disabled={!dirty} onClick={() => setDraft(null)}>
              {t('admin:common.reset')}
            </Button>
          </Group>
        </>
      )}
      <ConfirmDiscard
        opened={pendingKey !== null || leave.asking}
        onDiscard={() => {
          if (leave.asking) leave.discard();
          if (pendingKey) {
            setKey(pendingKey);
            setDraft(null);
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

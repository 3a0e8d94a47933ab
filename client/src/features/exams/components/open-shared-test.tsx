import { Alert, Anchor, Button, FileInput, Modal, Stack, Text, Title } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BUNDLE_EXT } from '@pm/protocol/bundle';
import { setText } from '@pm/protocol/set-text';
import { paths } from '@/config/paths';
import type { ReplicaDatabase } from '@/db/core/database';
import { useReplica } from '@/db/learner/replica-context';
import { sharedSets$ } from '@/db/learner/shared-sets';
import { useReplicaQuery } from '@/db/learner/use-replica-query';
import type { ShareRefusal } from '@/lib/bundles';
import { type LaunchedFile, onLaunchedFile } from '@/lib/pwa/launch-files';

type Outcome = { ok: true; id: string; title: string } | { ok: false; reason: ShareRefusal };

/** The shared sets on this device, newest first, as [id, title]. */
function useSharedList(lang: string) {
  const query = useCallback((db: ReplicaDatabase) => sharedSets$(db), []);
  const sets = useReplicaQuery(query).data ?? {};
  return Object.values(sets)
    .sort((a, b) => b.at - a.at)
    .map((s) => [s.set.id, setText(s.set, lang).l] as const);
}

const takeLink = (id: string) => `${paths.takeExam}/${encodeURIComponent(id)}`;

/**
 * "Open a shared test" (docs/live-tests.md "On the receiving phone"): a test file a friend sent,
 * picked here or opened with the installed app, checked on this phone without the internet and
 * kept in its replica; the learner takes it from here. The sets opened before are listed with it.
 */
export function OpenSharedTest({ guest }: { guest: boolean }) {
  const { t, i18n } = useTranslation('exam');
  const replica = useReplica();
  const [opened, setOpened] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const list = useSharedList(i18n.language);

  const importFile = useCallback(
    async (db: ReplicaDatabase, chosen: LaunchedFile) => {
      setBusy(true);
      setOutcome(null);
      try {
        // The checking code (WebCrypto, the schemas) loads only now.
        const { importBundle } = await import('@/lib/bundles');
        const payload = await importBundle(db, chosen, { guest });
        setOutcome({ ok: true, id: payload.set.id, title: setText(payload.set, i18n.language).l });
      } catch (err) {
        setOutcome({ ok: false, reason: err instanceof Error && err.name === 'ShareError' ? (err as Error & { reason: ShareRefusal }).reason : 'notBundle' });
      } finally {
        setBusy(false);
      }
    },
    [guest, i18n.language],
  );
  const open = () => {
    if (file && replica) void importFile(replica.db, file);
  };

  // A test file the installed app was opened with (lib/pwa/launch-files.ts): the same dialog,
  // checks and messages as a file picked here, once the replica is open.
  useEffect(() => {
    if (!replica) return;
    return onLaunchedFile((launched) => {
      setOpened(true);
      setFile(null);
      void importFile(replica.db, launched);
    });
  }, [replica, importFile]);

  return (
    <>
      <Button variant="default" leftSection={<IconFileImport size={16} aria-hidden />} onClick={() => setOpened(true)}>
        {t('share.open')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('share.open')}>
        <Stack>
          <Text size="sm">{t('share.openHelp')}</Text>
          <FileInput
            label={t('share.file')}
            accept={`.${BUNDLE_EXT},application/octet-stream,application/vnd.pariksha-mitra.test`}
            value={file}
            onChange={(f) => {
              setFile(f);
              setOutcome(null);
            }}
            clearable
          />
          <Button onClick={open} disabled={!file || !replica} loading={busy}>
            {t('share.import')}
          </Button>
          {outcome?.ok === false && (
            <Alert color="red" data-testid="shared-test-refused">
              {t(`share.refused.${outcome.reason}`)}
            </Alert>
          )}
          {outcome?.ok === true && (
            <Alert color="green" data-testid="shared-test-opened">
              <Stack gap="xs">
                <Text size="sm">{t('share.opened', { title: outcome.title })}</Text>
                <Button component={Link} to={takeLink(outcome.id)} size="compact-md" w="fit-content">
                  {t('share.take')}
                </Button>
              </Stack>
            </Alert>
          )}
          {list.length > 0 && (
            <Stack gap={4}>
              <Title order={3} size="h5">
                {t('share.onDevice')}
              </Title>
              {list.map(([id, title]) => (
                <Anchor key={id} component={Link} to={takeLink(id)} size="sm">
                  {title}
                </Anchor>
              ))}
            </Stack>
          )}
        </Stack>
      </Modal>
    </>
  );
}

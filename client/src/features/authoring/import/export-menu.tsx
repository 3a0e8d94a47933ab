import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifySuccess, notifyWarning } from '@/lib/notify';
import { IMPORT_FORMATS } from '@pm/protocol/question-import';
import { exportQuestions } from '../api/import';

/** Export questions (by ids) or a set to CSV, GIFT or Aiken (docs/authoring.md "Import and export"): an icon with a menu of the formats. */
export function ExportMenu({ what }: { what: { qids: string[] } | { qsid: string } }) {
  const { t } = useTranslation('authoring-import');
  const run = async (format: (typeof IMPORT_FORMATS)[number]) => {
    try {
      const skipped = await exportQuestions(format, what);
      if (skipped > 0) notifyWarning(t('export.skipped', { n: skipped }));
      else notifySuccess(t('export.done'));
    } catch {
      // Shown by downloadFile.
    }
  };
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Tooltip label={t('export.menu')}>
          <ActionIcon variant="subtle" aria-label={t('export.menu')}>
            <IconDownload size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        {IMPORT_FORMATS.map((f) => (
          <Menu.Item key={f} onClick={() => void run(f)}>
            {t(`formats.${f}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

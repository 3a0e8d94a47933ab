import { Button, Checkbox, Popover, Stack } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconColumns } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { type Column, COLUMNS, COLUMNS_STORAGE_KEY, DEFAULT_COLUMNS, normaliseColumns } from './columns';

/** The columns the editor chose, remembered in this browser (localStorage). */
export function useColumns(): [Column[], (c: Column[]) => void] {
  const [value, setValue] = useLocalStorage<Column[]>({
    key: COLUMNS_STORAGE_KEY,
    defaultValue: DEFAULT_COLUMNS,
    // Read at once, so the table is not drawn first with the default columns.
    getInitialValueInEffect: false,
    deserialize: (raw) => {
      if (raw === undefined) return DEFAULT_COLUMNS;
      try {
        return normaliseColumns(JSON.parse(raw));
      } catch {
        return DEFAULT_COLUMNS;
      }
    },
  });
  return [normaliseColumns(value), setValue];
}

/** The column chooser: one checkbox per field of the list; at least one column stays. */
export function ColumnChooser({ value, onChange }: { value: Column[]; onChange: (c: Column[]) => void }) {
  const { t } = useTranslation('authoring-bank');
  return (
    <Popover position="bottom-end" shadow="md" withinPortal>
      <Popover.Target>
        <Button variant="default" size="xs" leftSection={<IconColumns size={16} aria-hidden />}>
          {t('list.columns')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Checkbox.Group label={t('list.columns')} value={value} onChange={(v) => v.length > 0 && onChange(normaliseColumns(v))}>
          <Stack gap={6} mt={6}>
            {COLUMNS.map((c) => (
              <Checkbox key={c} value={c} label={t(`columns.${c}`)} />
            ))}
          </Stack>
        </Checkbox.Group>
      </Popover.Dropdown>
    </Popover>
  );
}

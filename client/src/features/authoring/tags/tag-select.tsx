import { MultiSelect, Select } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type TagKey, tagName, useTags } from '../api/tags';

type Common = {
  /** The tag group: c class, s subject, t topic, e exam (docs/glossary.md). */
  group: TagKey;
  label: string;
  /** Shown next to the label (the editor puts its "+" here to open the tag dialog). */
  rightSection?: React.ReactNode;
  placeholder?: string;
  disabled?: boolean;
  error?: React.ReactNode;
  'data-testid'?: string;
};
type MultiProps = Common & { multiple: true; value: string[]; onChange: (tids: string[]) => void };
type SingleProps = Common & { multiple?: false; value: string | null; onChange: (tid: string | null) => void };

/**
 * Picks tags (by tid) of one group, named in the interface's language (English, else the first
 * name the tag has). Searchable: a group holds hundreds of topics. Used by the editor and by the
 * question list's filters.
 */
export function TagSelect(props: MultiProps | SingleProps) {
  const { i18n } = useTranslation();
  const tags = useTags(props.group);
  const lang = i18n.language;
  const data = useMemo(
    () =>
      (tags.data ?? [])
        .map((tag) => ({ value: tag.tid, label: tagName(tag, lang) }))
        .sort((a, b) => a.label.localeCompare(b.label, lang)),
    [tags.data, lang],
  );
  // A value the group does not list (a tag removed, or not loaded yet) still shows, by its id.
  const withValues = useMemo(() => {
    const values = props.multiple ? props.value : props.value ? [props.value] : [];
    const missing = values.filter((v) => !data.some((d) => d.value === v));
    return missing.length === 0 ? data : [...data, ...missing.map((v) => ({ value: v, label: v }))];
  }, [data, props.multiple, props.value]);

  const common = {
    label: props.label,
    data: withValues,
    searchable: true,
    placeholder: props.placeholder,
    disabled: props.disabled,
    error: props.error,
    nothingFoundMessage: '—',
    'data-testid': props['data-testid'],
    inputContainer: props.rightSection
      ? (children: React.ReactNode) => (
          <div style={{ display: 'flex', gap: 4, alignItems: 'flex-start' }}>
            <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
            {props.rightSection}
          </div>
        )
      : undefined,
  };
  if (props.multiple) {
    return <MultiSelect {...common} value={props.value} onChange={props.onChange} clearable />;
  }
  return <Select {...common} value={props.value} onChange={(v) => props.onChange(v)} clearable />;
}

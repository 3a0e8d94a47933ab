import { Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { IconUserCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useEffectEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../lib/api-client';

/**
 * What GET /api/Person/getReferrer tells anyone about the person behind a mobile (docs/security.md "Referrals and names"):
 * `n`, the name masked ("Ra*** Ku***"), enough to confirm the right person; `id`, an opaque
 * handle the signup sends back as `p` (not the person's id, which the lookup never gives away).
 */
export type LookupPerson = { id: string; n: string };
type LookupResponse = { success: boolean; data: LookupPerson[] };

/**
 * The ten digits of an Indian mobile as people write it ("90000 00003", "+91 9000000003",
 * "09000000003"), or null when it is not one. Exported for callers that pre-fill the widget.
 */
export function tenDigits(raw: string): string | null {
  let d = raw.replace(/\D/g, '');
  if (d.length === 12 && d.startsWith('91')) d = d.slice(2);
  else if (d.length === 11 && d.startsWith('0')) d = d.slice(1);
  return d.length === 10 ? d : null;
}

export function lookupQueryOptions(mobile: string) {
  return {
    queryKey: ['person', 'referrer', mobile] as const,
    // Anonymous (signup happens signed out); the server adds +91 (docs/api.md "Signup").
    queryFn: () => api<LookupResponse>('/Person/getReferrer', { query: { strQuery: mobile }, skipAuth: true, silent: true }),
    staleTime: 60_000,
  };
}

type Props = {
  /** Field label; defaults to "Referrer's mobile number". */
  label?: ReactNode;
  description?: ReactNode;
  /** Mobile to start with (for example from a referral link); looked up at once. */
  defaultMobile?: string;
  /** Mandatory pick: says 'Please select a person' while nothing is found. */
  required?: boolean;
  disabled?: boolean;
  /** Called with the person found, or null while there is none. */
  onChange: (person: LookupPerson | null) => void;
};

/**
 * Person lookup: exact match by mobile number. Only a complete 10-digit mobile is
 * looked up; anything else gets a prompt for a valid mobile. Shared widget: its strings live in
 * the `auth` namespace for now, which it names explicitly.
 */
export function PersonLookup({ label, description, defaultMobile = '', required = false, disabled, onChange }: Props) {
  const { t } = useTranslation(['auth', 'messages']);
  const statusId = useId();
  const [value, setValue] = useState(defaultMobile);
  const [touched, setTouched] = useState(defaultMobile !== '');
  const mobile = tenDigits(value);
  const query = useQuery({ ...lookupQueryOptions(mobile ?? ''), enabled: mobile !== null });
  const person = mobile !== null ? (query.data?.data[0] ?? null) : null;

  const report = useEffectEvent((p: LookupPerson | null) => onChange(p));
  // `person` keeps its identity while the query's data does, so this fires only on real changes.
  useEffect(() => report(person), [person]);

  const searching = mobile !== null && query.isFetching;
  let error: ReactNode = null;
  if (touched && value.trim() !== '' && mobile === null) error = t('auth:lookup.invalidMobile');
  else if (mobile !== null && query.isError) error = query.error instanceof ApiError ? query.error.msg : t('messages:someError');
  else if (mobile !== null && query.isSuccess && !person) {
    error = (
      <>
        <span style={{ display: 'block' }}>{t('auth:lookup.notFound')}</span>
        {required && <span style={{ display: 'block' }}>{t('messages:referrerRequired')}</span>}
      </>
    );
  } else if (required && touched && !person && !searching) error = t('messages:referrerRequired');

  return (
    <Stack gap={4}>
      <TextInput
        label={label ?? t('auth:lookup.label')}
        description={description ?? t('auth:lookup.description')}
        placeholder={t('auth:lookup.placeholder')}
        type="tel"
        inputMode="numeric"
        autoComplete="off"
        maxLength={16}
        withAsterisk={required}
        aria-required={required}
        disabled={disabled}
        value={value}
        onChange={(e) => {
          const next = e.currentTarget.value;
          setValue(next);
          if (tenDigits(next)) setTouched(true);
        }}
        onBlur={() => setTouched(true)}
        error={error}
        rightSection={searching ? <Loader size="xs" aria-label={t('auth:lookup.searching')} /> : null}
        data-testid="person-lookup-mobile"
      />
      <div id={statusId} role="status" aria-live="polite">
        {person && (
          <Group gap={6} wrap="nowrap">
            <IconUserCheck size={18} color="var(--mantine-color-teal-7)" aria-hidden />
            <Text size="sm" c="teal.8" fw={500}>
              {t('auth:lookup.found', { name: person.n })}
            </Text>
          </Group>
        )}
      </div>
    </Stack>
  );
}

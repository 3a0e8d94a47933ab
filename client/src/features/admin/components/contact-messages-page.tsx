import { ActionIcon, Alert, Card, Group, Loader, Pagination, Spoiler, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactMessage } from '@pm/protocol/contact';
import { useDeleteContactMessage } from '../api/delete-contact-message';
import { MESSAGE_PAGE_SIZE, useContactMessages } from '../api/get-contact-messages';
import { useConfirmedDelete } from '../hooks/use-confirmed-delete';
import { ConfirmDelete } from './confirm-delete';
import { useFormatDate } from '@/hooks/use-format-date';

/** Admin: Contact messages — what visitors wrote on the public Contact page, newest first. */
export default function ContactMessagesPage() {
  const { t } = useTranslation(['admin-shop', 'admin']);
  const [input, setInput] = useState('');
  const [q] = useDebouncedValue(input.trim(), 300);
  const [page, setPage] = useState(1);
  const list = useContactMessages(q, (page - 1) * MESSAGE_PAGE_SIZE);
  const del = useDeleteContactMessage();
  const removal = useConfirmedDelete((m: ContactMessage) => del.mutateAsync(m.id));
  const formatDate = useFormatDate();
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / MESSAGE_PAGE_SIZE));
  return (
    <Stack>
      <Title order={2}>{t('messages.title')}</Title>
      <TextInput
        label={t('messages.search')}
        value={input}
        onChange={(e) => {
          setInput(e.currentTarget.value);
          setPage(1);
        }}
        type="search"
        maw={360}
      />
      {list.isPending && <Loader aria-label={t('admin:common.loading')} />}
      {list.isError && <Alert color="red">{t('admin:common.loadFailed')}</Alert>}
      {list.isSuccess && list.data.data.length === 0 && <Text c="dimmed">{t('admin:common.noData')}</Text>}
      <Stack gap="xs" role="list" aria-label={t('messages.title')}>
        {(list.data?.data ?? []).map((m) => (
          <Card key={m.id} withBorder padding="sm" role="listitem" aria-label={m.name}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <div style={{ minWidth: 0 }}>
                <Text fw={600}>{m.name}</Text>
                <Text size="sm" c="dimmed">
                  {m.mobile}
                  {m.email ? ` · ${m.email}` : ''} · {formatDate(m.createdAt)}
                </Text>
              </div>
              <ActionIcon variant="subtle" color="red" aria-label={t('messages.deleteFrom', { name: m.name })} onClick={() => removal.ask(m)}>
                ✕
              </ActionIcon>
            </Group>
            <Spoiler maxHeight={66} showLabel={t('messages.more')} hideLabel={t('messages.less')} mt="xs">
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {m.description}
              </Text>
            </Spoiler>
          </Card>
        ))}
      </Stack>
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
      <ConfirmDelete name={removal.deleting ? t('messages.fromName', { name: removal.deleting.name }) : ''} opened={removal.deleting !== null} onConfirm={removal.confirm} onClose={removal.cancel} />
    </Stack>
  );
}

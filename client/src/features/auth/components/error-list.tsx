import { Alert, List } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** The red alert list in which auth forms show the server's (translated) messages. */
export function ErrorList({ title, errors }: { title: string; errors: readonly string[] }) {
  if (errors.length === 0) return null;
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertCircle size={18} />}>
      <List size="sm" spacing={2}>
        {errors.map((e, i) => (
          <List.Item key={`${i}-${e}`}>{e}</List.Item>
        ))}
      </List>
    </Alert>
  );
}

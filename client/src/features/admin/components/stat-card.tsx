import { Card, Text } from '@mantine/core';

/** A labelled figure of a report. */
export function StatCard({ label, value, color }: { label: string; value: string; color?: string }) {
  return (
    <Card withBorder padding="xs">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" c={color}>
        {value}
      </Text>
    </Card>
  );
}

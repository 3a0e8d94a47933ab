import { Container } from '@mantine/core';
import type { ReactNode } from 'react';

/** The frame of a back-office screen shown outside the admin layout (/dashboard and the report routes). */
export default function PageFrame({ children }: { children: ReactNode }) {
  return (
    <Container size="xl" py="md">
      {children}
    </Container>
  );
}

import { useQuery } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { renderWithApp } from '@/testing/render';
import { QueryState } from './query-state';

function Reads({ read }: { read: () => Promise<string> }) {
  const query = useQuery({ queryKey: ['query-state-test', read], queryFn: read, retry: false });
  return (
    <QueryState query={query} failedTitle="Could not load">
      {(text) => <p>{text}</p>}
    </QueryState>
  );
}

test('a loader while the read is on its way, then the data', async () => {
  let done!: (s: string) => void;
  await renderWithApp(<Reads read={() => new Promise((resolve) => (done = resolve))} />);
  expect(screen.getByLabelText('Loading…')).toBeInTheDocument();
  done('Here it is');
  expect(await screen.findByText('Here it is')).toBeInTheDocument();
});

test("a failed read: the alert with the server's message, or a general one", async () => {
  const { unmount } = await renderWithApp(<Reads read={() => Promise.reject(new ApiError(404, 'Grievance not found'))} />);
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Could not load');
  expect(alert).toHaveTextContent('Grievance not found');
  unmount();
  await renderWithApp(<Reads read={() => Promise.reject(new Error('socket hang up'))} />, { lang: 'hi' });
  expect(await screen.findByRole('alert')).not.toHaveTextContent('socket hang up');
});

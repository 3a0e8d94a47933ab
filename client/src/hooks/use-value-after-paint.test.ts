import { act, renderHook, waitFor } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import { afterNextPaint } from '../lib/after-paint';
import { useValueAfterPaint } from './use-value-after-paint';

test('a new value is handed out only after the next paint, then stays', async () => {
  const { result, rerender } = renderHook(({ v }) => useValueAfterPaint(v), { initialProps: { v: 1 } });
  expect(result.current).toBe(1);
  rerender({ v: 2 });
  // The render that brought it still shows the value of the last paint.
  expect(result.current).toBe(1);
  await waitFor(() => expect(result.current).toBe(2));
  rerender({ v: 2 });
  expect(result.current).toBe(2);
});

test('values that change before the paint end at the newest one', async () => {
  const { result, rerender } = renderHook(({ v }) => useValueAfterPaint(v), { initialProps: { v: 'a' } });
  rerender({ v: 'b' });
  rerender({ v: 'c' });
  expect(result.current).toBe('a');
  await waitFor(() => expect(result.current).toBe('c'));
});

test('afterNextPaint runs once after the frame, and not at all when cancelled', async () => {
  const ran = vi.fn();
  const kept = vi.fn();
  const cancel = afterNextPaint(ran);
  afterNextPaint(kept);
  expect(ran).not.toHaveBeenCalled();
  cancel();
  await act(() => new Promise((r) => setTimeout(r, 50)));
  expect(ran).not.toHaveBeenCalled();
  expect(kept).toHaveBeenCalledTimes(1);
});

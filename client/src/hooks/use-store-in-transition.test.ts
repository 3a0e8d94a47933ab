import { act, renderHook } from '@testing-library/react';
import { expect, test } from 'vitest';
import { useStoreInTransition } from './use-store-in-transition';

function store<T>(initial: T) {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(v: T) {
      value = v;
      for (const l of listeners) l();
    },
    subscribe(l: () => void) {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
    listeners,
  };
}

test('starts at the store value and follows each change', async () => {
  const s = store(1);
  const { result } = renderHook(() => useStoreInTransition(s.subscribe, s.get));
  expect(result.current).toBe(1);
  await act(async () => s.set(2));
  expect(result.current).toBe(2);
  await act(async () => s.set(3));
  expect(result.current).toBe(3);
});

test('a change made before the subscription is taken up, and unmounting unsubscribes', async () => {
  const s = store('a');
  let renders = 0;
  const { result, unmount } = renderHook(() => {
    renders += 1;
    const v = useStoreInTransition(s.subscribe, s.get);
    // Changed during the first render, before the effect subscribes.
    if (renders === 1) s.set('b');
    return v;
  });
  await act(async () => undefined);
  expect(result.current).toBe('b');
  expect(s.listeners.size).toBe(1);
  unmount();
  expect(s.listeners.size).toBe(0);
});

test('reads through the latest selector', async () => {
  const s = store({ a: 1, b: 10 });
  const { result, rerender } = renderHook(({ key }: { key: 'a' | 'b' }) => useStoreInTransition(s.subscribe, () => s.get()[key]), { initialProps: { key: 'a' as 'a' | 'b' } });
  expect(result.current).toBe(1);
  rerender({ key: 'b' });
  expect(result.current).toBe(10);
  await act(async () => s.set({ a: 2, b: 20 }));
  expect(result.current).toBe(20);
  await act(async () => s.set({ a: 3, b: 20 }));
  expect(result.current).toBe(20);
});

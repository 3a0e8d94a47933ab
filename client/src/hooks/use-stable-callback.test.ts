import { renderHook } from '@testing-library/react';
import { expect, test } from 'vitest';
import { useStableCallback } from './use-stable-callback';

test('keeps one identity across renders and always calls the newest function', () => {
  const calls: string[] = [];
  const { result, rerender } = renderHook(({ tag }) => useStableCallback((x: number) => calls.push(`${tag}:${x}`)), { initialProps: { tag: 'a' } });
  const first = result.current;
  first(1);
  rerender({ tag: 'b' });
  expect(result.current).toBe(first);
  first(2);
  expect(calls).toEqual(['a:1', 'b:2']);
});

test('returns what the function returns', () => {
  const { result } = renderHook(() => useStableCallback((a: number, b: number) => a + b));
  expect(result.current(2, 3)).toBe(5);
});

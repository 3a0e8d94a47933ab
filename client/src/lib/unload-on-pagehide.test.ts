import { afterEach, expect, test, vi } from 'vitest';
import { add, getSize, removeAll, runAll } from './unload-on-pagehide';

afterEach(() => removeAll());

function pagehide(persisted: boolean): void {
  const e = new Event('pagehide') as PageTransitionEvent;
  Object.defineProperty(e, 'persisted', { value: persisted });
  window.dispatchEvent(e);
}

test('callbacks run once when the page goes away, not when it enters the back/forward cache', () => {
  const die = vi.fn();
  add(die);
  expect(getSize()).toBe(1);
  pagehide(true);
  expect(die).not.toHaveBeenCalled();
  pagehide(false);
  expect(die).toHaveBeenCalledTimes(1);
  expect(getSize()).toBe(0);
  pagehide(false);
  expect(die).toHaveBeenCalledTimes(1);
});

test('remove and run behave as the unload package’s', async () => {
  const a = vi.fn(() => 'a');
  const b = vi.fn(() => 'b');
  const ha = add(a);
  add(b);
  expect(ha.remove()).toBe(true);
  expect(await runAll()).toEqual(['b']);
  expect(a).not.toHaveBeenCalled();
  const hc = add(a);
  expect(hc.run()).toBe('a');
  expect(getSize()).toBe(0);
});

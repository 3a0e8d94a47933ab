import { describe, expect, test } from 'vitest';
import { createLoadMonitor, type LoadClock, OVERLOAD } from './overload';

/** A clock the test moves by hand, and event-loop turns it ends by hand: no real time involved. */
function fakeClock() {
  let t = 1000;
  let pending: (() => void)[] = [];
  const clock: LoadClock = { now: () => t, afterTurn: (fn) => void pending.push(fn) };
  return {
    clock,
    advance: (ms: number) => (t += ms),
    endTurn: () => {
      const fns = pending;
      pending = [];
      for (const fn of fns) fn();
    },
  };
}

describe('load monitor', () => {
  test('refuses beyond MAX_IN_FLIGHT requests not yet answered, and admits again as they are answered', () => {
    const { clock } = fakeClock();
    const m = createLoadMonitor(clock);
    for (let i = 0; i < OVERLOAD.MAX_IN_FLIGHT; i++) expect(m.admit(false)).toBeNull();
    expect(m.inFlight()).toBe(OVERLOAD.MAX_IN_FLIGHT);
    expect(m.admit(false)).toBe('in-flight');
    expect(m.admit(true)).toBe('in-flight');
    m.finished();
    expect(m.admit(false)).toBeNull();
  });

  test('refuses requests read late in a long event-loop turn that has read many, until the turn ends', () => {
    const { clock, advance, endTurn } = fakeClock();
    const m = createLoadMonitor(clock);
    const answerAll = () => {
      while (m.inFlight() > 0) m.finished();
    };
    // Many requests in one turn, quickly: all admitted.
    for (let i = 0; i < OVERLOAD.TURN_MIN_REQUESTS + 10; i++) expect(m.admit(true)).toBeNull();
    answerAll();
    // The same turn has now run for TURN_MAX_MS: whatever it reads next waited that long.
    advance(OVERLOAD.TURN_MAX_MS);
    expect(m.admit(true)).toBe('busy-turn');
    expect(m.admit(true)).toBe('busy-turn');
    // In-process requests (tests) do not arrive through turns.
    expect(m.admit(false)).toBeNull();
    answerAll();
    // A new turn starts afresh.
    endTurn();
    expect(m.admit(true)).toBeNull();
  });

  test('a long turn that read only a few requests is not overload (one slow request, a browser’s 6 connections)', () => {
    const { clock, advance } = fakeClock();
    const m = createLoadMonitor(clock);
    for (let i = 0; i < OVERLOAD.TURN_MIN_REQUESTS; i++) {
      expect(m.admit(true)).toBeNull();
      m.finished();
      advance(OVERLOAD.TURN_MAX_MS);
    }
    expect(m.inFlight()).toBe(0);
  });

  test('a storm of new connections (CONN_BURST within CONN_WINDOW_MS) refuses requests until connections come slower', () => {
    const { clock, advance, endTurn } = fakeClock();
    const m = createLoadMonitor(clock);
    // A browser's six connections, and a few more over time: no storm.
    for (let i = 0; i < 6; i++) m.connected();
    expect(m.admit(true)).toBeNull();
    m.finished();
    endTurn();
    // CONN_BURST connections, spread just wider than the window: no storm.
    const step = OVERLOAD.CONN_WINDOW_MS / (OVERLOAD.CONN_BURST - 1) + 0.1;
    for (let i = 0; i < OVERLOAD.CONN_BURST; i++) {
      m.connected();
      advance(step);
    }
    expect(m.admit(true)).toBeNull();
    m.finished();
    endTurn();
    // CONN_BURST connections within the window: requests read now are refused, one turn after
    // another, while in-process requests (tests) are not.
    for (let i = 0; i < OVERLOAD.CONN_BURST; i++) m.connected();
    expect(m.admit(true)).toBe('connection-storm');
    endTurn();
    advance(OVERLOAD.CONN_WINDOW_MS / 2);
    expect(m.admit(true)).toBe('connection-storm');
    expect(m.admit(false)).toBeNull();
    m.finished();
    // Once the burst is older than the window, requests are admitted again.
    advance(OVERLOAD.CONN_WINDOW_MS);
    endTurn();
    expect(m.admit(true)).toBeNull();
    expect(m.inFlight()).toBe(1);
  });
});

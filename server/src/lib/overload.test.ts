import { describe, expect, test } from 'vitest';
import { type Arrival, createLoadMonitor, type LoadClock, OVERLOAD, sourceKey } from './overload';

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

/** An arrival from `address` straight to the server (no proxy). */
const from = (address: string): Arrival => ({ client: address, peer: address });

describe('fair shedding per source (issue 16)', () => {
  test('a storm of connections from one source refuses that source only; another source is admitted', () => {
    const { clock, endTurn } = fakeClock();
    const m = createLoadMonitor(clock);
    m.connected('192.0.2.9');
    for (let i = 0; i < OVERLOAD.CONN_BURST * 4; i++) m.connected('203.0.113.66');
    expect(m.admit(true, from('203.0.113.66'))).toBe('connection-storm');
    const learner = from('192.0.2.9');
    expect(m.admit(true, learner)).toBeNull();
    m.finished(learner);
    // A source that made none of the storm's connections (a kept-alive one) is admitted too.
    const other = from('198.51.100.7');
    expect(m.admit(true, other)).toBeNull();
    m.finished(other);
    endTurn();
    expect(m.admit(true, from('203.0.113.66'))).toBe('connection-storm');
    expect(m.inFlight()).toBe(0);
  });

  test('a burst spread over a few addresses (within a share of the storm each) is still theirs: they are refused, others admitted', () => {
    const { clock, advance } = fakeClock();
    const m = createLoadMonitor(clock);
    m.connected('192.0.2.9');
    // Connections from three addresses in turn: 5 or 6 of the last 16 each, but more than
    // SOURCE_CONNECTIONS_PER_S each in no time.
    for (let i = 0; i < 3 * (OVERLOAD.SOURCE_CONNECTIONS_PER_S + 1); i++) m.connected(`203.0.113.${i % 3}`);
    for (let i = 0; i < 3; i++) expect(m.admit(true, from(`203.0.113.${i}`))).toBe('connection-storm');
    const learner = from('192.0.2.9');
    expect(m.admit(true, learner)).toBeNull();
    m.finished(learner);
    // Seconds later their rate has decayed: a storm of many devices, them included, is real load.
    advance(5 * OVERLOAD.SOURCE_RATE_MS);
    for (let i = 0; i < OVERLOAD.CONN_BURST; i++) m.connected(`198.51.100.${i}`);
    expect(m.admit(true, from('192.0.2.9'))).toBe('connection-storm');
    expect(m.inFlight()).toBe(0);
  });

  test('a storm spread over many sources (a few connections each) is real load and refuses everyone', () => {
    const { clock } = fakeClock();
    const m = createLoadMonitor(clock);
    for (let i = 0; i < OVERLOAD.CONN_BURST; i++) m.connected(`192.0.2.${i % 4}`);
    // Four sources with four of the sixteen connections each: nobody is over SOURCE_CONNECTIONS.
    expect(m.admit(true, from('192.0.2.0'))).toBe('connection-storm');
    expect(m.admit(true, from('198.51.100.7'))).toBe('connection-storm');
    expect(m.inFlight()).toBe(0);
  });

  test('a source over its share of the in-flight slots is refused while other sources are admitted, up to HARD_MAX_IN_FLIGHT for everyone', () => {
    const { clock } = fakeClock();
    const m = createLoadMonitor(clock);
    const hog: Arrival[] = [];
    for (let i = 0; i < OVERLOAD.MAX_IN_FLIGHT; i++) {
      const a = from('203.0.113.66');
      expect(m.admit(false, a)).toBeNull();
      hog.push(a);
    }
    expect(m.admit(false, from('203.0.113.66'))).toBe('in-flight');
    // Other sources, each below its share, are admitted until the hard ceiling; then nobody is.
    const others: Arrival[] = [];
    let n = 0;
    while (m.inFlight() < OVERLOAD.HARD_MAX_IN_FLIGHT) {
      const a = from(`198.51.100.${n++ % 8}`);
      expect(m.admit(false, a)).toBeNull();
      others.push(a);
    }
    expect(m.admit(false, from('192.0.2.9'))).toBe('in-flight');
    // As some of the hog's requests are answered (still over MAX_IN_FLIGHT in all) it stays
    // refused: it is over its share (64 / 9).
    for (const a of hog.splice(0, 20)) m.finished(a);
    expect(m.inFlight()).toBeGreaterThan(OVERLOAD.MAX_IN_FLIGHT);
    expect(m.admit(false, from('203.0.113.66'))).toBe('in-flight');
    // The others are below theirs: they are admitted again.
    const again = from('198.51.100.3');
    expect(m.admit(false, again)).toBeNull();
    for (const a of [...hog, ...others, again]) m.finished(a);
    expect(m.inFlight()).toBe(0);
  });

  test('past MAX_IN_FLIGHT each source gets MAX_IN_FLIGHT divided among the sources holding slots', () => {
    const { clock } = fakeClock();
    const m = createLoadMonitor(clock, { ...OVERLOAD, HARD_MAX_IN_FLIGHT: 1000 });
    for (let i = 0; i < OVERLOAD.MAX_IN_FLIGHT; i++) expect(m.admit(false, from('203.0.113.66'))).toBeNull();
    for (let i = 0; i < OVERLOAD.MAX_IN_FLIGHT / 2; i++) expect(m.admit(false, from('192.0.2.9'))).toBeNull();
    expect(m.admit(false, from('192.0.2.9'))).toBe('in-flight');
    // A third source: a third each.
    for (let i = 0; i < Math.floor(OVERLOAD.MAX_IN_FLIGHT / 3); i++) expect(m.admit(false, from('198.51.100.7'))).toBeNull();
    expect(m.admit(false, from('198.51.100.7'))).toBe('in-flight');
  });

  test('in a busy turn the sources that sent most of its requests are refused; everyone only when the others alone are too many', () => {
    const { clock, advance, endTurn } = fakeClock();
    const m = createLoadMonitor(clock);
    const answer = (a: Arrival) => {
      if (m.admit(true, a) === null) m.finished(a);
    };
    for (let i = 0; i < 100; i++) answer(from('203.0.113.66'));
    advance(OVERLOAD.TURN_MAX_MS);
    expect(m.admit(true, from('203.0.113.66'))).toBe('busy-turn');
    // A browser's few requests in the same turn still go through.
    for (let i = 0; i < OVERLOAD.SOURCE_REQUESTS_PER_TURN; i++) {
      const a = from('192.0.2.9');
      expect(m.admit(true, a)).toBeNull();
      m.finished(a);
    }
    expect(m.admit(true, from('192.0.2.9'))).toBe('busy-turn');
    endTurn();

    // Many sources with a request or two each: the turn's load is real, everyone waits.
    for (let i = 0; i <= OVERLOAD.TURN_MIN_REQUESTS; i++) answer(from(`198.51.100.${i}`));
    advance(OVERLOAD.TURN_MAX_MS);
    expect(m.admit(true, from('192.0.2.200'))).toBe('busy-turn');
    expect(m.inFlight()).toBe(0);
  });

  test('an IPv6 client counts by its /64, an IPv4-mapped address as its IPv4', () => {
    expect(sourceKey('192.0.2.1')).toBe('192.0.2.1');
    expect(sourceKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(sourceKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(sourceKey('2001:DB8:1:2:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(sourceKey('2001:db8::5')).toBe('2001:db8:0:0::/64');
    expect(sourceKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(sourceKey('::1')).toBe('0:0:0:0::/64');
    // Addresses a device draws inside its /64 are one source: a storm from them is that source's.
    const { clock } = fakeClock();
    const m = createLoadMonitor(clock);
    for (let i = 0; i < OVERLOAD.CONN_BURST; i++) m.connected(`2001:db8:1:2::${(i + 1).toString(16)}`);
    expect(m.admit(true, from('2001:db8:1:2::ffff'))).toBe('connection-storm');
    const other = from('2001:db8:1:3::1');
    expect(m.admit(true, other)).toBeNull();
  });

  test('the sources kept are bounded; a forgotten source never unbalances the count of requests in flight', () => {
    const { clock } = fakeClock();
    const m = createLoadMonitor(clock, { ...OVERLOAD, MAX_SOURCES: 8 });
    const held: Arrival[] = [];
    for (let i = 0; i < 50; i++) {
      const a = from(`192.0.2.${i}`);
      expect(m.admit(false, a)).toBeNull();
      held.push(a);
    }
    for (let i = 0; i < 200; i++) m.connected(`198.51.100.${i}`);
    for (const a of held) m.finished(a);
    expect(m.inFlight()).toBe(0);
    // The accounting still works afterwards: one source alone gets every slot, not more.
    for (let i = 0; i < OVERLOAD.MAX_IN_FLIGHT; i++) expect(m.admit(false, from('192.0.2.1'))).toBeNull();
    expect(m.admit(false, from('192.0.2.1'))).toBe('in-flight');
  });
});

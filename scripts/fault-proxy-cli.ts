/**
 * The fault proxy (scripts/fault-proxy.ts) as a process of its own, in front of a running server:
 *
 *   npx tsx scripts/fault-proxy-cli.ts --target 8181 [--port 8244] [--seed 42]
 *       [--drop 0.05] [--reset 0.1] [--half-open 0.05] [--delay-max-ms 10000] [--life-max-ms 8000]
 *
 * then open http://127.0.0.1:8244 in a browser to use the app through random partitions. The
 * seed (FAULT_SEED, or --seed, or a fresh one) is printed so that a run can be replayed; every
 * 10 s it prints the connections by fate. bench:sync forks it (the proxy then runs on its own
 * event loop, not the load generator's) and hears its port over IPC.
 */
import { parseArgs } from 'node:util';
import { seedFromEnv, startFaultProxy } from './fault-proxy';

const { values } = parseArgs({
  options: {
    target: { type: 'string' },
    'target-host': { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '0' },
    seed: { type: 'string' },
    drop: { type: 'string', default: '0' },
    reset: { type: 'string', default: '0' },
    'half-open': { type: 'string', default: '0' },
    'delay-max-ms': { type: 'string', default: '0' },
    'life-max-ms': { type: 'string', default: '0' },
    quiet: { type: 'boolean', default: false },
  },
});
if (!values.target) {
  console.error('usage: tsx scripts/fault-proxy-cli.ts --target <server port> [--port n] [--seed n] [--drop p] [--reset p] [--half-open p] [--delay-max-ms ms] [--life-max-ms ms]');
  process.exit(2);
}

const seed = values.seed !== undefined ? Number(values.seed) >>> 0 : seedFromEnv();
const proxy = await startFaultProxy({
  target: { host: values['target-host'], port: Number(values.target) },
  port: Number(values.port),
  seed,
  rates: {
    drop: Number(values.drop),
    reset: Number(values.reset),
    halfOpen: Number(values['half-open']),
    delayMaxMs: Number(values['delay-max-ms']),
    lifeMaxMs: Number(values['life-max-ms']),
  },
});
if (!values.quiet) {
  console.log(`fault proxy ${proxy.url} → ${values['target-host']}:${values.target}, FAULT_SEED=${seed}, rates ${JSON.stringify(proxy.rates())}`);
  setInterval(() => console.log(`connections by fate ${JSON.stringify(proxy.counts)}, answers lost after the server answered ${proxy.lostAnswers()}`), 10_000).unref();
}
process.send?.({ ready: true, port: proxy.port, seed });
process.on('message', (m) => {
  if (m === 'counts') process.send?.({ counts: { ...proxy.counts, lostAnswers: proxy.lostAnswers() } });
  if (m === 'stop') void proxy.close().then(() => process.exit(0));
});
process.on('SIGINT', () => void proxy.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void proxy.close().then(() => process.exit(0)));

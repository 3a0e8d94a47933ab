import { hostname } from 'node:os';
import type { Config } from '../env';

/** The response header that names the instance that answered (docs/cluster.md). */
export const INSTANCE_HEADER = 'X-Instance';

/**
 * The name of this server instance, as every response's X-Instance header gives it: INSTANCE_ID
 * when set, else the host name and the process id (`web-3-41207`): unique among the processes of
 * one machine (npm run start:cluster's workers) and, with distinct host names, across machines.
 */
export function instanceName(config: Pick<Config, 'INSTANCE_ID'>): string {
  return config.INSTANCE_ID ?? `${hostname()}-${process.pid}`;
}

import type { AddressInfo } from 'node:net';
import { createAdaptorServer, type ServerType } from '@hono/node-server';

/**
 * Connections the kernel holds for the server before it accepts them. Node's default (511) is
 * shorter than a submission storm: 1,000 devices connecting at once overflowed it, and the
 * kernel dropped the rest, which then waited 1-3 s for their SYN to be sent again. With a queue
 * that holds them every device gets an answer (admitted or 503 + Retry-After, lib/overload.ts).
 * Linux caps it at net.core.somaxconn (4096 by default since kernel 5.4).
 */
export const LISTEN_BACKLOG = 4096;

/** `serve` of @hono/node-server with the listen queue above. */
export function serveApp(
  fetch: Parameters<typeof createAdaptorServer>[0]['fetch'],
  opts: { hostname: string; port: number },
  onListening?: (info: AddressInfo) => void,
): ServerType {
  const server = createAdaptorServer({ fetch });
  server.listen({ host: opts.hostname, port: opts.port, backlog: LISTEN_BACKLOG }, () => onListening?.(server.address() as AddressInfo));
  return server;
}

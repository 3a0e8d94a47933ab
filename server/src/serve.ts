import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { ShedFetch } from './lib/overload';

/**
 * Connections the kernel holds for the server before it accepts them. Node's default (511) is
 * shorter than a submission storm: 1,000 devices connecting at once overflowed it, and the
 * kernel dropped the rest, which then waited 1-3 s for their SYN to be sent again. With a queue
 * that holds them every device gets an answer (admitted or 503 + Retry-After, lib/overload.ts).
 * Linux caps it at net.core.somaxconn (4096 by default since kernel 5.4).
 */
export const LISTEN_BACKLOG = 4096;

/** A fetch, possibly wrapped by the load shedder (lib/overload.ts), whose hooks the server calls. */
type Fetch = Parameters<typeof getRequestListener>[0] &
  Partial<Pick<ShedFetch<unknown[]>, 'refuseEarly' | 'connected'>> & {
    /** Routes served on Node's own request and response, before anything else; true when it took the request (app.ts). */
    direct?: (incoming: IncomingMessage, outgoing: ServerResponse) => boolean;
  };

/**
 * `serve` of @hono/node-server with the listen queue above. A fetch wrapped by the load shedder
 * gets its check before @hono/node-server's listener builds the request (cheaper refusals).
 */
export function serveApp(fetch: Fetch, opts: { hostname: string; port: number }, onListening?: (info: AddressInfo) => void) {
  const listener = getRequestListener(fetch);
  const refuseEarly = fetch.refuseEarly;
  const direct = fetch.direct;
  const server = createServer(
    refuseEarly || direct
      ? (incoming, outgoing) => {
          if (direct?.(incoming, outgoing)) return;
          if (!refuseEarly?.(incoming, outgoing, () => void listener(incoming, outgoing))) void listener(incoming, outgoing);
        }
      : listener,
  );
  const connected = fetch.connected;
  // By the address it comes from: a storm is refused at the source that makes it (lib/overload.ts).
  if (connected) server.on('connection', (socket: Socket) => connected(socket.remoteAddress));
  server.listen({ host: opts.hostname, port: opts.port, backlog: LISTEN_BACKLOG }, () => onListening?.(server.address() as AddressInfo));
  return server;
}

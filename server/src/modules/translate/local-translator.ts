import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * The local translator (ARCHITECTURE decision 9; docs/configuration.md "Machine translation"): a small HTTP server of our own,
 * on 127.0.0.1 and a random port, that speaks the OpenAI chat-completions protocol the real
 * adapter (chat-translator.ts) speaks to any provider, so that development, the API tests, the
 * end-to-end tests and the benchmark run the real adapter code over real HTTP with no network.
 *
 * It translates nothing. Its answer is deterministic and plainly a demo: every text that has
 * words is marked `[demo hi] ` (the target language's code) where its first word starts, and
 * every placeholder token is kept where it was. It can be told to misbehave, by the test that
 * holds it (`misbehave`) or by a marker anywhere in the text sent (`#translator:drop#`), which
 * is how an end-to-end test or a developer reaches it through the app:
 * - `drop`: the first token of the first text that has one disappears;
 * - `duplicate`: that token appears twice;
 * - `alter`: that token comes back as `[ n ]`;
 * - `reorder`: the first two tokens of a text swap places (allowed: a translation may move a
 *   bold word; the markup is then sanitised again before it is saved);
 * - `busy`: 429 Too Many Requests with Retry-After, as providers rate-limit;
 * - `timeout`: no answer for `timeoutHoldMs` (longer than the adapter waits);
 * - `garbage`: a reply that is not the JSON object asked for.
 */

export const MISBEHAVIOURS = ['drop', 'duplicate', 'alter', 'reorder', 'busy', 'timeout', 'garbage'] as const;
export type Misbehaviour = (typeof MISBEHAVIOURS)[number];

/** The prefix of the demo "translation" of a text into `lang`. */
export const demoMark = (lang: string) => `[demo ${lang}] `;

const MARKER = /#translator:(drop|duplicate|alter|reorder|busy|timeout|garbage)#/;
const TOKEN = /\[\[\d+\]\]/;
/** The target language code the adapter's prompt names: "… into Hindi (hi) …". */
const TARGET = /\binto [^()\n]* \(([a-z]{2})\)/;

export type LocalTranslator = {
  /** The chat-completions address, http://127.0.0.1:<port>/v1/chat/completions. */
  url: string;
  /** Misbehave on every request until set back to null. */
  misbehave(mode: Misbehaviour | null): void;
  /** Requests answered (any status), and the user messages they carried, newest last (20 kept). */
  stats(): { requests: number; busyMs: number; lastInputs: string[] };
  close(): Promise<void>;
};

type ChatMessage = { role: string; content: string };

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 4 * 1024 * 1024) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const providerError = (message: string, type: string) => ({ error: { message, type, param: null, code: null } });

/** The demo text: the mark before the first word; tokens and blanks before it stay in front. */
function demoText(text: string, lang: string): string {
  const lead = /^(?:\s|\[\[\d+\]\])*/.exec(text)?.[0] ?? '';
  if (lead.length === text.length) return text;
  return lead + demoMark(lang) + text.slice(lead.length);
}

/** Applies a token misbehaviour to the first text that has a token. */
function spoil(out: Record<string, string>, mode: 'drop' | 'duplicate' | 'alter') {
  for (const [k, v] of Object.entries(out)) {
    const m = TOKEN.exec(v);
    if (!m) continue;
    const token = m[0];
    const replaced = mode === 'drop' ? '' : mode === 'duplicate' ? `${token} ${token}` : `[ ${token.slice(2, -2)} ]`;
    out[k] = v.replace(token, replaced);
    return;
  }
}

/** Swaps the first two tokens of the first text that has two. */
function swapFirstTokens(out: Record<string, string>) {
  for (const [k, v] of Object.entries(out)) {
    const tokens = v.match(/\[\[\d+\]\]/g);
    if (!tokens || tokens.length < 2) continue;
    const [a, b] = tokens as [string, string];
    out[k] = v.replace(a, '\u0000').replace(b, a).replace('\u0000', b);
    return;
  }
}

/**
 * Starts the local translator. `timeoutHoldMs` is how long a `timeout` request is held before it
 * is answered after all (the adapter has given up by then).
 */
export async function startLocalTranslator(opts: { timeoutHoldMs?: number } = {}): Promise<LocalTranslator> {
  let forced: Misbehaviour | null = null;
  let requests = 0;
  let busyMs = 0;
  const lastInputs: string[] = [];
  const held = new Set<NodeJS.Timeout>();
  const holdMs = opts.timeoutHoldMs ?? 120_000;

  const server: Server = createServer((req, res) => {
    const started = performance.now();
    requests++;
    void handle(req, res).finally(() => {
      busyMs += performance.now() - started;
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'POST' || !req.url?.replace(/\?.*$/, '').endsWith('/chat/completions')) {
      json(res, 404, providerError('Unknown path', 'invalid_request_error'));
      return;
    }
    let body: { model?: unknown; messages?: ChatMessage[] };
    try {
      body = JSON.parse(await readBody(req)) as typeof body;
    } catch {
      json(res, 400, providerError('Body is not JSON', 'invalid_request_error'));
      return;
    }
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const user = messages.filter((m) => m.role === 'user').at(-1)?.content;
    const system = messages.find((m) => m.role === 'system')?.content ?? '';
    if (typeof user !== 'string' || typeof body.model !== 'string') {
      json(res, 400, providerError('model and a user message are required', 'invalid_request_error'));
      return;
    }
    lastInputs.push(user);
    if (lastInputs.length > 20) lastInputs.shift();
    const mode = forced ?? (MARKER.exec(user)?.[1] as Misbehaviour | undefined) ?? null;
    if (mode === 'busy') {
      json(res, 429, providerError('Rate limit reached for requests', 'requests'), { 'retry-after': '20' });
      return;
    }
    if (mode === 'timeout') {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          held.delete(t);
          resolve();
        }, holdMs);
        t.unref();
        held.add(t);
      });
      if (res.destroyed) return;
    }
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(user) as Record<string, unknown>;
    } catch {
      json(res, 400, providerError('The user message must be a JSON object', 'invalid_request_error'));
      return;
    }
    const lang = TARGET.exec(system)?.[1] ?? 'xx';
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(input)) out[k] = typeof v === 'string' ? demoText(v, lang) : String(v);
    if (mode === 'drop' || mode === 'duplicate' || mode === 'alter') spoil(out, mode);
    if (mode === 'reorder') swapFirstTokens(out);
    const content = mode === 'garbage' ? 'Sorry, I cannot help with that.' : JSON.stringify(out);
    json(res, 200, {
      id: `chatcmpl-local-${requests}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: Math.ceil(user.length / 4), completion_tokens: Math.ceil(content.length / 4), total_tokens: Math.ceil((user.length + content.length) / 4) },
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // A development server or a test run must not be kept alive by the demo translator.
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    misbehave(mode) {
      forced = mode;
    },
    stats: () => ({ requests, busyMs, lastInputs: [...lastInputs] }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of held) clearTimeout(t);
        held.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

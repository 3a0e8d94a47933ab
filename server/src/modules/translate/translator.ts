import { MSG } from '@pm/protocol/messages';
import type { Config } from '../../env';
import { AppError } from '../../lib/errors';
import { type LocalTranslator, startLocalTranslator } from './local-translator';

/*
 * The translation adapter (ARCHITECTURE decision 9; docs/configuration.md "Machine translation"): one client of the OpenAI
 * chat-completions protocol, which hosted APIs (OpenAI, Groq, OpenRouter, Together, Azure
 * OpenAI's v1 API, Google's Gemini OpenAI-compatible endpoint) and self-hosted model servers
 * (Ollama, vLLM, llama.cpp's llama-server, LM Studio) all speak. Which endpoint is configuration:
 * TRANSLATE_URL, TRANSLATE_MODEL and TRANSLATE_API_KEY. Without TRANSLATE_URL, outside
 * production, the same client talks to the local translator (local-translator.ts), which
 * answers deterministically and visibly as a demo; in production there is no translator at all
 * and Generate says so, rather than pretending.
 */

/** One batch: keys → text with `[[n]]` tokens (placeholders.ts). */
export type Batch = Record<string, string>;
export type TargetLanguage = { code: string; name: string };

export type Translator = {
  /** `real`: an endpoint configured by TRANSLATE_URL; `demo`: the local translator. */
  mode: 'real' | 'demo';
  model: string;
  /** The batch translated, key for key, or an AppError (BAD_GATEWAY) saying what went wrong. */
  translate(batch: Batch, target: TargetLanguage): Promise<Batch>;
};

/** Language names for the prompt when the caller gives none. */
const LANGUAGE_NAMES: Record<string, string> = { hi: 'Hindi', mr: 'Marathi', bn: 'Bengali', gu: 'Gujarati', ta: 'Tamil', te: 'Telugu', kn: 'Kannada', pa: 'Punjabi', ur: 'Urdu' };
export const languageName = (code: string, given?: string) => given ?? LANGUAGE_NAMES[code] ?? code;

/** The chat-completions address of a configured endpoint: a base (`…/v1`) gets `/chat/completions`. */
export function completionsUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/chat\/completions$/.test(trimmed) ? trimmed : `${trimmed}/chat/completions`;
}

/**
 * The instruction. The target is named with its code in parentheses ("into Hindi (hi)"), which
 * the local translator reads too.
 */
export function systemPrompt(target: TargetLanguage): string {
  return [
    `You translate exam questions from English into ${target.name} (${target.code}).`,
    'The user sends a JSON object whose values are texts. Answer with one JSON object with exactly the same keys, each value translated.',
    'Tokens like [[1]] stand for formulas, images and formatting: copy every token unchanged, exactly once, to the place it belongs in the translated sentence.',
    'Keep numbers, units and proper names as they are. Answer with the JSON object only.',
  ].join('\n');
}

const busy = () => new AppError('BAD_GATEWAY', MSG.translatorBusy);
const failed = () => new AppError('BAD_GATEWAY', MSG.translatorFailed);

/** The JSON object of a reply, tolerating a Markdown code fence around it. */
function parseReply(content: string): Record<string, unknown> | null {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(content);
  try {
    const v: unknown = JSON.parse(fenced?.[1] ?? content);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The adapter: one request per batch to an OpenAI-compatible chat-completions endpoint. */
export function chatTranslator(opts: { url: string; model: string; apiKey?: string | undefined; timeoutMs: number; mode: 'real' | 'demo' }): Translator {
  return {
    mode: opts.mode,
    model: opts.model,
    async translate(batch, target) {
      let res: Response;
      try {
        res = await fetch(opts.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(opts.apiKey && { authorization: `Bearer ${opts.apiKey}` }) },
          body: JSON.stringify({
            model: opts.model,
            temperature: 0,
            response_format: { type: 'json_object' },
            messages: [
              { role: 'system', content: systemPrompt(target) },
              { role: 'user', content: JSON.stringify(batch) },
            ],
          }),
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
      } catch (err) {
        if (err instanceof DOMException && (err.name === 'TimeoutError' || err.name === 'AbortError')) throw new AppError('BAD_GATEWAY', MSG.translatorTimeout);
        throw failed();
      }
      if (res.status === 429) {
        await res.body?.cancel();
        throw busy();
      }
      let body: unknown;
      try {
        body = await res.json();
      } catch (err) {
        if (err instanceof DOMException && (err.name === 'TimeoutError' || err.name === 'AbortError')) throw new AppError('BAD_GATEWAY', MSG.translatorTimeout);
        throw failed();
      }
      if (!res.ok) throw failed();
      const content = (body as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw failed();
      const reply = parseReply(content);
      if (!reply) throw failed();
      const out: Batch = {};
      for (const key of Object.keys(batch)) {
        const v = reply[key];
        // A key left out counts as a text whose tokens were all lost (placeholders.ts refuses it).
        out[key] = typeof v === 'string' ? v : '';
      }
      return out;
    },
  };
}

/** An app's translator, once resolved: the one to call (null: none), and the local one if it runs. */
export type ResolvedTranslator = { translator: Translator | null; local: LocalTranslator | null };
/** An app's translator on first use (`deps.translator`, built in compose.ts). */
export type LazyTranslator = () => Promise<ResolvedTranslator>;

/** The translator the configuration names; the local translator is started here when it is the one. */
async function resolveTranslator(config: Config): Promise<ResolvedTranslator> {
  if (config.TRANSLATE_URL) {
    const translator = chatTranslator({
      url: completionsUrl(config.TRANSLATE_URL),
      model: config.TRANSLATE_MODEL ?? '',
      apiKey: config.TRANSLATE_API_KEY,
      timeoutMs: config.TRANSLATE_TIMEOUT_MS,
      mode: 'real',
    });
    return { translator, local: null };
  }
  if (config.NODE_ENV === 'production') return { translator: null, local: null };
  const local = await startLocalTranslator();
  return { translator: chatTranslator({ url: local.url, model: 'local-demo', timeoutMs: config.TRANSLATE_TIMEOUT_MS, mode: 'demo' }), local };
}

/**
 * The translator of an app (one per app, built by the composition root): the configured
 * endpoint; else, outside production, the local translator, started on first use; else none
 * (Generate is off in a production installation without TRANSLATE_URL). Every call after the
 * first gets the same answer, unless the first failed.
 */
export function createLazyTranslator(config: Config): LazyTranslator {
  let resolved: Promise<ResolvedTranslator> | null = null;
  return () => {
    if (!resolved) {
      const attempt = resolveTranslator(config);
      // A failed start (no port) is tried again on the next request.
      attempt.catch(() => {
        if (resolved === attempt) resolved = null;
      });
      resolved = attempt;
    }
    return resolved;
  };
}

/** Without a translator to call, the configured mode for GET /ai/translator. */
export function translatorMode(config: Config): 'real' | 'demo' | 'off' {
  if (config.TRANSLATE_URL) return 'real';
  return config.NODE_ENV === 'production' ? 'off' : 'demo';
}

import { ApiError } from './api-client';
import i18n from './i18n';
import { notifyError } from './notify';
import { translateServerMessage } from './server-messages';
import { getSession } from './session';

/**
 * Downloads a file the API answers (an export, the CSV template) under the name it gives. The
 * body is a file, not JSON, so this is a fetch of its own; errors come as the API's JSON and are
 * shown as every other server message. Returns the response's headers.
 */
export async function downloadFile(path: string, query: Record<string, string> = {}): Promise<Headers> {
  const url = new URL(`/api${path}`, window.location.origin);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const token = getSession()?.token;
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) {
    const data = (await res.json().catch(() => null)) as { msg?: string; code?: string } | null;
    await i18n.loadNamespaces('messages').catch(() => undefined);
    const msg = data?.msg ? translateServerMessage(data.msg) : i18n.t('errors.someError');
    notifyError(msg);
    throw new ApiError(res.status, msg, data?.code);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'download.txt';
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return res.headers;
}

/*
 * Test files the installed app was opened with (docs/live-tests.md "On the receiving phone"): the
 * web app manifest registers the app as the handler of `.pmtest` files (vite.config.ts
 * `file_handlers`), and the browser hands such a file to the page it opens (the exam list) through
 * `window.launchQueue`. This module only keeps the files until the exam list's "Open a shared test"
 * takes them, so that a file opened from the phone goes through the very checks and messages of
 * a file picked by hand. Kept small: main.tsx loads it with the app's entry, the checking code
 * loads with the exam list.
 */

/** What `getFile()` of a launch's file handle gives: the bytes to check. */
export type LaunchedFile = Pick<Blob, 'size' | 'arrayBuffer'>;

/** The parts of the File Handling API used here (not in the DOM typings yet). */
type LaunchHandle = { kind?: string; getFile(): Promise<LaunchedFile> };
type LaunchParams = { files?: readonly LaunchHandle[] };
export type LaunchQueue = { setConsumer(consumer: (params: LaunchParams) => void): void };

let pending: LaunchedFile[] = [];
let handler: ((file: LaunchedFile) => void) | null = null;

/** Hands the pending files to the handler, if one is there, oldest first (each file once). */
function deliver(): void {
  while (handler && pending.length > 0) {
    const [first, ...rest] = pending;
    pending = rest;
    handler(first!);
  }
}

/** The files of one launch that can be read (a directory, or a file gone meanwhile, is skipped). */
async function filesOf(params: LaunchParams): Promise<LaunchedFile[]> {
  const handles = (params.files ?? []).filter((h) => h.kind !== 'directory');
  const files = await Promise.all(handles.map((h) => h.getFile().catch(() => null)));
  return files.filter((f): f is LaunchedFile => f !== null);
}

async function receive(params: LaunchParams): Promise<void> {
  pending = [...pending, ...(await filesOf(params))];
  deliver();
}

/**
 * Starts taking the files the app is launched with. The browser queues a launch until a consumer
 * is set, so calling this once at start-up is enough; without the File Handling API (a browser
 * tab, iOS) it does nothing.
 */
export function consumeLaunchQueue(win: { launchQueue?: LaunchQueue } = window as { launchQueue?: LaunchQueue }): void {
  win.launchQueue?.setConsumer((params) => void receive(params));
}

/**
 * Hands each launched file, once, to `onFile`: those that came before (in a later task, never
 * during the call) and those to come, until the returned function is called. One handler at a
 * time: the screen that imports them.
 */
export function onLaunchedFile(onFile: (file: LaunchedFile) => void): () => void {
  handler = onFile;
  void Promise.resolve().then(deliver);
  return () => {
    if (handler === onFile) handler = null;
  };
}

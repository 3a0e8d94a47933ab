import { useState } from 'react';
import { notifySuccess } from '@/lib/notify';
import { translateServerMessage } from '@/lib/server-messages';

/**
 * The 'Confirm Delete' flow of the admin lists: `ask(item)` opens the question, `confirm`
 * deletes and shows the server's success message (api() has shown a failure already).
 */
export function useConfirmedDelete<T>(remove: (item: T) => Promise<{ msg: string }>) {
  const [deleting, setDeleting] = useState<T | null>(null);
  const confirm = async () => {
    const item = deleting;
    setDeleting(null);
    if (item === null) return;
    try {
      notifySuccess(translateServerMessage((await remove(item)).msg));
    } catch {
      // api() has shown the server's message.
    }
  };
  return { deleting, ask: setDeleting, cancel: () => setDeleting(null), confirm: () => void confirm() };
}

import type { AnyCollectionName as CollectionName } from '../../../sync-protocol/src/sync/envelopes';

/**
 * Tells connected devices which replicated collections changed (GET /api/sync/v1/stream).
 * A change of shared data (tags, sets) goes to everyone; a change of a person's own data only to
 * that person's connections. In-process: several server instances would put a pub/sub (e.g.
 * SQLite-polled or Redis) behind this same interface.
 */
export type ChangeEvent = { collections: CollectionName[]; personId?: string };
type Listener = (collections: CollectionName[]) => void;

export type EventBus = {
  emit: (e: ChangeEvent) => void;
  subscribe: (personId: string, listener: Listener) => () => void;
  listenerCount: () => number;
};

export function createEventBus(): EventBus {
  const byPerson = new Map<string, Set<Listener>>();
  let count = 0;
  return {
    emit(e) {
      const targets = e.personId ? [byPerson.get(e.personId) ?? new Set<Listener>()] : byPerson.values();
      for (const set of targets) for (const l of set) l(e.collections);
    },
    subscribe(personId, listener) {
      let set = byPerson.get(personId);
      if (!set) byPerson.set(personId, (set = new Set()));
      set.add(listener);
      count++;
      // Idempotent: a stream unsubscribes both when it is aborted and when its loop ends, and the
      // second call must not remove a newer connection's set (another tab or device of the same
      // person that subscribed in between) — that silenced its events until it reconnected.
      return () => {
        if (!set.delete(listener)) return;
        count--;
        if (set.size === 0 && byPerson.get(personId) === set) byPerson.delete(personId);
      };
    },
    listenerCount: () => count,
  };
}

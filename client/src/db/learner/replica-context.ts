import { createContext, useContext } from 'react';
import type { ReplicaHandle } from './replica';

/**
 * The signed-in person's replica, or null while it opens (or when signed out). Provided by the
 * app layer, which loads RxDB lazily after the shell has rendered.
 */
export const ReplicaContext = createContext<ReplicaHandle | null>(null);

export function useReplica(): ReplicaHandle | null {
  return useContext(ReplicaContext);
}

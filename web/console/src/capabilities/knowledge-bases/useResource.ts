import { useCallback, useEffect, useState } from 'react';

/** Something loaded from the API for a screen: the answer, the failure, and a way to load it again. */
export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [round, setRound] = useState(0);
  // The caller names what the load depends on, as for useEffect.
  const stableLoad = useCallback(load, deps);
  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    stableLoad(controller.signal).then(
      (answer) => controller.signal.aborted || setData(answer),
      (failure: unknown) => controller.signal.aborted || setError(failure),
    );
    return () => controller.abort();
  }, [stableLoad, round]);
  return { data, setData, error, reload: useCallback(() => setRound((n) => n + 1), []) };
}

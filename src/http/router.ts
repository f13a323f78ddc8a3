import type { RouteSpec } from './route.ts';

export type RouteMatch = { spec: RouteSpec; params: Record<string, string> };
export type RouteLookup = RouteMatch | { allowed: string[] } | null;

type Compiled = { spec: RouteSpec; method: string; pattern: RegExp; names: string[] };

/**
 * Exact paths resolve with one Map lookup; paths with `:params` by a regular expression each.
 * A path that exists under other methods answers with those methods (405), any other with null (404).
 */
export function createRouter(routes: readonly RouteSpec[]) {
  const exact = new Map<string, RouteSpec>();
  const methodsByExactPath = new Map<string, string[]>();
  const dynamic: Compiled[] = [];
  for (const spec of routes) {
    const method = spec.method.toUpperCase();
    if (!spec.path.includes(':')) {
      exact.set(`${method} ${spec.path}`, spec);
      methodsByExactPath.set(spec.path, [...(methodsByExactPath.get(spec.path) ?? []), method]);
      continue;
    }
    const names: string[] = [];
    const source = spec.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    dynamic.push({ spec, method, pattern: new RegExp(`^${source}/?$`), names });
  }

  return {
    match(method: string, path: string): RouteLookup {
      const verb = method === 'HEAD' ? 'GET' : method;
      const hit = exact.get(`${verb} ${path}`);
      if (hit) return { spec: hit, params: {} };
      const allowed = new Set(methodsByExactPath.get(path) ?? []);
      for (const route of dynamic) {
        const m = route.pattern.exec(path);
        if (!m) continue;
        if (route.method !== verb) {
          allowed.add(route.method);
          continue;
        }
        const params: Record<string, string> = {};
        route.names.forEach((name, i) => (params[name] = safeDecode(m[i + 1]!)));
        return { spec: route.spec, params };
      }
      return allowed.size > 0 ? { allowed: [...allowed] } : null;
    },
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

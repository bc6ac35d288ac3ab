/**
 * The router: every API v1 route (path pattern -> handler), each kind's from
 * kinds/<kind>.ts in the registry's order (kinds/index.ts), and the matcher.
 */
import { notImplemented, ok, type Route, type RouteSpec } from "./request.js";
import { KIND_ROUTES } from "./kinds/index.js";

export { DEFAULT_SWITCHES } from "./switches.js";
export type { RequestContext, Route } from "./request.js";

const TABLE: RouteSpec[] = [["GET", "/ping", () => ok({ time: new Date().toISOString() })], ...KIND_ROUTES];

export const ROUTES: Route[] = TABLE.map(([method, pattern, handler]) => ({
  method,
  pattern,
  segments: pattern.split("/").filter(Boolean),
  handler,
  write: method !== "GET",
  notImplemented: handler === notImplemented,
}));

/** Find the route for a path below /api/v1; literal segments win over parameters (search before :id). */
export function matchRoute(method: string, path: string): { route: Route; params: Record<string, string> } | { allowed: string[] } | undefined {
  const parts = path.split("/").filter(Boolean);
  let best: { route: Route; params: Record<string, string>; score: number } | undefined;
  const allowed: string[] = [];
  for (const route of ROUTES) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let score = 0;
    let okMatch = true;
    for (let i = 0; i < parts.length; i++) {
      const s = route.segments[i]!;
      if (s.startsWith(":")) params[s.slice(1)] = decodeURIComponent(parts[i]!);
      else if (s === parts[i]) score++;
      else {
        okMatch = false;
        break;
      }
    }
    if (!okMatch) continue;
    if (route.method !== method) {
      allowed.push(route.method);
      continue;
    }
    if (!best || score > best.score) best = { route, params, score };
  }
  if (best) return { route: best.route, params: best.params };
  return allowed.length ? { allowed } : undefined;
}

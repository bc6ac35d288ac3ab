/**
 * A bundle's exchanges sent again, in order, to another tenant (an emulator started with the
 * bundle's switches: `pimctl emulator --switches BUNDLE`), each answer compared with the one
 * recorded by its status and the shape of its body (the top-level keys): where the emulator
 * answers otherwise, the tenant reads API v1 in a way nobody modelled yet.
 */
import type { ApiCore } from "../api/core.js";
import { rawRequest } from "../api/probes.js";
import type { Bundle, BundleExchange } from "./bundle.js";

export interface ReplayRow {
  seq: number;
  method: string;
  path: string;
  recorded: { status?: number; shape: string };
  now?: { status: number; shape: string };
  /** Why it was not sent, or how sending it failed. */
  note?: string;
  same: boolean;
}

/** The shape of a body: its top-level keys, "empty", an array, or "not JSON" ("cut" when the bundle kept only part of it). */
export function shapeOf(text: string | undefined, cut = false): string {
  if (text === undefined) return "not kept";
  if (!text.trim()) return "empty";
  try {
    const v = JSON.parse(text) as unknown;
    if (Array.isArray(v)) return `[${v.length ? "…" : ""}]`;
    if (v === null || typeof v !== "object") return JSON.stringify(v);
    return `{${Object.keys(v).sort().join(", ")}}`;
  } catch {
    return cut ? "cut" : "not JSON";
  }
}

/** The exchanges a replay sends: those on the tenant's own paths that were answered (another host's are left out). */
export function replayable(b: Bundle): BundleExchange[] {
  return b.exchanges.filter((x) => x.path.startsWith("/") && x.status !== undefined);
}

export async function replay(core: ApiCore, b: Bundle): Promise<ReplayRow[]> {
  const rows: ReplayRow[] = [];
  for (const x of replayable(b)) {
    const cut = x.response_length !== undefined && x.response_body !== undefined && x.response_length > x.response_body.length;
    const recorded = { ...(x.status !== undefined ? { status: x.status } : {}), shape: shapeOf(x.response_body, cut) };
    const base = { seq: x.seq, method: x.method, path: x.path, recorded };
    let body: unknown;
    if (x.request_body !== undefined) {
      try {
        body = JSON.parse(x.request_body);
      } catch {
        rows.push({ ...base, note: "its request body was cut in the bundle: not sent", same: false });
        continue;
      }
    }
    const a = await rawRequest(core, x.method, x.path, body).catch((e: unknown) => e as Error);
    if (a instanceof Error) {
      rows.push({ ...base, note: a.message, same: false });
      continue;
    }
    const now = { status: a.status, shape: shapeOf(a.text) };
    const sameShape = recorded.shape === "cut" || recorded.shape === "not kept" || recorded.shape === now.shape;
    rows.push({ ...base, now, same: a.status === recorded.status && sameShape });
  }
  return rows;
}

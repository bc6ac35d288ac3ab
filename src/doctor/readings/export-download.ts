/**
 * How an export file is handed out (`--write-probes --export-profile ID`): the file on the
 * tenant's own address, or a redirect to another host (object storage) that must not receive
 * the token. The export job stays: API v1 has no endpoint that deletes one.
 */
import type { DoctorContext } from "../context.js";
import type { Evidence, Verdict } from "../types.js";
import { NOT_PROBED } from "./writes.js";

const READY_WAIT_MS = 120_000;

export async function detectExportDownload(ctx: DoctorContext): Promise<Verdict<"direct" | "redirect">> {
  if (!ctx.fixture) return NOT_PROBED;
  if (ctx.exportProfile === undefined)
    return { outcome: "not-probed", why: "name an export profile with --export-profile ID (the probe starts an export job, which API v1 cannot delete)" };
  const job = await ctx.api.createExport(ctx.exportProfile);
  ctx.notes.push(`export job ${job.id} (profile ${ctx.exportProfile}) stays in the tenant: API v1 has no endpoint that deletes an export`);
  let status = job.status;
  let fileUrl = job.file_url;
  for (let wait = 100, t0 = Date.now(); status !== "done" && status !== "failed"; wait = Math.min(2000, wait * 2)) {
    if (Date.now() - t0 > READY_WAIT_MS)
      return { outcome: "undetermined", why: `export ${job.id} was still ${status} after ${READY_WAIT_MS / 1000} s`, evidence: [] };
    await new Promise((r) => setTimeout(r, wait));
    const now = await ctx.api.getExport(job.id);
    status = now.status;
    fileUrl = now.file_url;
  }
  if (status === "failed") return { outcome: "undetermined", why: `export ${job.id} failed on the tenant's side`, evidence: [] };
  const mark = ctx.exchanges.length;
  const got = await ctx.api.downloadExport(fileUrl).then(
    (buf) => `${buf.byteLength} bytes`,
    (e: unknown) => e as Error,
  );
  const hops = ctx.exchanges.slice(mark);
  const base = new URL(ctx.api.baseUrl);
  const where = (p: string) => new URL(p, ctx.api.baseUrl);
  const ev: Evidence[] = hops.map((x) => {
    const loc = x.responseHeaders.location;
    const to = typeof loc === "string" ? where(loc) : undefined;
    const shown = `${where(x.path).origin === base.origin ? "the tenant's address" : "another host"}; status ${x.status ?? x.error}`;
    return {
      request: `GET ${where(x.path).origin}${where(x.path).pathname}`,
      ...(x.status ? { status: x.status } : {}),
      shows: to ? `${shown}, Location on ${to.origin === base.origin ? "the tenant's origin" : `another host (${to.host})`}` : shown,
    };
  });
  const first = hops[0];
  if (got instanceof Error || !first)
    return {
      outcome: "unknown",
      seen: `the download failed: ${got instanceof Error ? got.message : "no request was made"}`,
      pimctl: "apply --backup-profile cannot save a backup from this tenant: it stops before the first write",
      evidence: ev,
    };
  const own = where(first.path).origin === base.origin;
  const redirected = first.status !== undefined && first.status >= 300 && first.status < 400;
  if (own && first.status === 200) return { outcome: "known", reading: "direct", evidence: [...ev, { request: "(the file)", shows: got }] };
  if (own && redirected && hops.some((h) => where(h.path).origin !== base.origin && h.status === 200))
    return { outcome: "known", reading: "redirect", evidence: [...ev, { request: "(the file)", shows: got }] };
  return {
    outcome: "unknown",
    seen: own ? `file_url answered ${first.status}` : `file_url is on another host (${where(first.path).host}) from the start`,
    pimctl:
      "pimctl downloads it all the same (the token only to the tenant's own origin, redirects followed, 202 waited out); no emulator reading answers this way",
    evidence: [...ev, { request: "(the file)", shows: got }],
  };
}

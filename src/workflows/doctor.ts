/**
 * `pimctl doctor`: first contact with a tenant. Reads (the token, latency, each list, every
 * reading of the switches table), and with --write-probes (never on a tenant the config marks
 * `production: true`) writes a few records named with one prefix to see what only writes show,
 * then deletes them whatever happened: a failed probe, a signal (held as apply holds its state:
 * the first signal stops the probes and removes their records, a second removes what it can in
 * 2 s and lists the rest). Records an earlier run could not remove are found by the prefix.
 */
import type { PimClient } from "../api/client.js";
import type { Exchange } from "../api/exchange.js";
import { PimctlError } from "../errors.js";
import { hold, interruptedBy } from "../holdings.js";
import { packageVersion } from "../package.js";
import { connect, pickTenant } from "../tenant.js";
import { makeMemo, type DoctorContext } from "../doctor/context.js";
import { detectAll, pings, readLists, reachOf, versionsOf } from "../doctor/examine.js";
import { pageSizes } from "../doctor/readings/paging.js";
import { findLeftovers, newRunId, ProbeRecords, type ProbeFixture } from "../doctor/probe-records.js";
import { emulatorOptions } from "../doctor/vocabulary.js";
import type { DoctorReport, Leftover, ProbeRecord, SwitchName } from "../doctor/types.js";
import { connectOpts, projectConfig, type ProjectOptions } from "./project.js";

export interface DoctorOptions extends ProjectOptions {
  /** Write probe records (a staging tenant): the readings only writes show. */
  writeProbes?: boolean;
  /** Remove what earlier runs left (by the prefix), and probe nothing. */
  removeLeftovers?: boolean;
  /** The export profile the download probe exports (it starts a job API v1 cannot delete). */
  exportProfile?: number;
  /** The image the asset probe names; a tenant that re-hosts images fetches it. */
  probeImage?: string;
  /** How many pings measure the latency (default 5). */
  pings?: number;
  /** Lines for the person while it runs (on a signal: what it does now). */
  progress?: (line: string) => void;
  /** The command that removes leftovers, as the person runs pimctl (default: pimctl doctor --tenant NAME --remove-leftovers). */
  removeCommand?: string;
}

/** A 1x1 PNG on Wikimedia Commons: a tenant that re-hosts images must be able to fetch the probe's. */
export const DEFAULT_PROBE_IMAGE = "https://upload.wikimedia.org/wikipedia/commons/c/ca/1x1.png";

export async function doctor(opts: DoctorOptions): Promise<DoctorReport> {
  const config = await projectConfig(opts);
  const picked = pickTenant(config, opts.tenant);
  const writes = opts.writeProbes === true || opts.removeLeftovers === true;
  if (writes && picked.tenant.production === true) {
    throw new PimctlError(
      "policy_refused",
      `tenant "${picked.name}" is marked production: true in the config: pimctl doctor never writes to it ` +
        `(${opts.writeProbes ? "--write-probes" : "--remove-leftovers"}); run the write probes against a staging tenant. Nothing was written`,
    );
  }
  const exchanges: Exchange[] = [];
  const onExchange = (x: Exchange) => {
    exchanges.push(x);
    opts.onExchange?.(x);
  };
  const connection = await connect(config, picked.name, { ...connectOpts(opts), onExchange });
  const api = connection.api;
  const removeCommand = opts.removeCommand ?? `pimctl doctor --tenant ${picked.name} --remove-leftovers`;
  const report = emptyReport(connection.name, connection.baseUrl);
  const probes = writes ? new ProbeRecords(api, newRunId()) : undefined;
  const onAbort = () => {
    const what = probes?.live.length ? "stopping the probes, then removing their records" : "stopping";
    opts.progress?.(`Interrupted (${interruptedBy(opts.signal)}): ${what} (again to quit at once).`);
  };
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  const released = probes ? holdProbes(probes, connection.name, removeCommand) : () => undefined;
  try {
    report.latency = await pings(api, opts.pings ?? 5);
    const fixture = await leftoversAndFixture(api, probes, opts, report, removeCommand);
    const lists = await readLists(api);
    report.reach = reachOf(lists);
    const ctx: DoctorContext = {
      api,
      lists,
      versions: versionsOf(lists),
      probes,
      fixture,
      exportProfile: opts.exportProfile,
      probeImage: opts.probeImage ?? DEFAULT_PROBE_IMAGE,
      exchanges,
      notes: report.write_probes.notes,
      memo: makeMemo(),
    };
    if (!opts.removeLeftovers) {
      report.findings = await detectAll(ctx, opts.signal);
      if (!opts.signal?.aborted) report.page_sizes = await pageSizes(ctx);
    }
  } finally {
    if (probes) {
      const done = await probes.cleanup();
      report.write_probes.removed.push(...done.removed);
      report.write_probes.left.push(...done.left.map((r): Leftover => ({ ...r, remove: removeCommand })));
    }
    released();
    opts.signal?.removeEventListener("abort", onAbort);
    report.requests = api.stats().requests;
    await api.close();
  }
  return finish(report, opts);
}

/** Held while probe records may exist: a signal stops the run instead of ending the process, so they are removed. */
function holdProbes(probes: ProbeRecords, tenant: string, removeCommand: string): () => void {
  return hold({
    what: `the probe records of pimctl doctor on tenant "${tenant}"`,
    stopsItself: true,
    closing: `pimctl doctor stopped; a record listed above as left is found again by its prefix (${removeCommand}).`,
    release: async () => describeCleanup(await probes.cleanup(), removeCommand),
    // Read when the 2 s run out: each record not yet known to be gone, by its id, as a finished cleanup lists them.
    get ifNotReleased() {
      return [...probes.live.map((r) => `left: ${r.kind} ${r.id} "${r.name}"; remove it with: ${removeCommand}`), `remove what is left with: ${removeCommand}`];
    },
  });
}

/** Records earlier runs left: listed, or removed when this run may write; then the probe fixture, with --write-probes. */
async function leftoversAndFixture(
  api: PimClient,
  probes: ProbeRecords | undefined,
  opts: DoctorOptions,
  report: DoctorReport,
  removeCommand: string,
): Promise<ProbeFixture | undefined> {
  // A list the token cannot read (403, a proxy's HTML page) is a finding of reach, never the end of the run.
  const found = await findLeftovers(api).catch((e: unknown) => {
    if (e instanceof PimctlError && e.code === "api_unauthorized") throw e;
    report.write_probes.notes.push(`records of earlier doctor runs could not be looked for: ${e instanceof PimctlError ? e.format() : String(e)}`);
    return [];
  });
  if (!probes) {
    report.leftovers = found.map((r) => ({ ...r, remove: removeCommand }));
    return undefined;
  }
  for (const r of found) probes.track(r);
  const earlier = await probes.cleanup();
  report.leftovers_removed = earlier.removed;
  report.leftovers = earlier.left.map((r) => ({ ...r, remove: removeCommand }));
  return opts.writeProbes ? makeFixture(probes, opts.signal, report) : undefined;
}

/** The probe fixture, or why there is none (the token may not write, a signal came): the reads go on. */
async function makeFixture(probes: ProbeRecords, signal: AbortSignal | undefined, report: DoctorReport): Promise<ProbeFixture | undefined> {
  const stop = () => {
    if (signal?.aborted) throw new PimctlError("interrupted", `${interruptedBy(signal)} before the probes`);
  };
  try {
    stop();
    const fixture = await probes.makeFixture(stop);
    report.write_probes.ran = true;
    return fixture;
  } catch (e) {
    if (e instanceof PimctlError && e.code === "api_unauthorized") throw e;
    report.write_probes.why_not = `the probe records could not be made: ${e instanceof Error ? e.message : String(e)}`;
    return undefined;
  }
}

/** The known readings as switches, and the same as emulator options. */
function finish(report: DoctorReport, opts: DoctorOptions): DoctorReport {
  const known = report.findings.filter((f) => f.outcome === "known");
  report.switches = Object.fromEntries(known.map((f) => [f.switch, f.reading]));
  report.emulator_options = emulatorOptions(Object.fromEntries(known.map((f) => [f.switch, f.reading === null ? undefined : f.reading])));
  if (!opts.writeProbes) report.write_probes.why_not ??= "off: --write-probes (a staging tenant) shows what only writes reveal";
  const stoppedBy = interruptedBy(opts.signal);
  if (stoppedBy) report.interrupted = stoppedBy;
  return report;
}

function emptyReport(tenant: string, baseUrl: string): DoctorReport {
  return {
    format_version: 1,
    tenant,
    base_url: baseUrl,
    pimctl_version: packageVersion(),
    node_version: process.version,
    token: "accepted",
    reach: [],
    page_sizes: [],
    findings: [],
    switches: {} as Partial<Record<SwitchName, unknown>>,
    emulator_options: [],
    write_probes: { ran: false, removed: [], left: [], notes: [] },
    leftovers: [],
    leftovers_removed: [],
    requests: 0,
  };
}

/** For a forced end: what was removed, and each record left with its command. */
function describeCleanup(r: { removed: ProbeRecord[]; left: Array<ProbeRecord & { error: string }> }, removeCommand: string): string[] {
  return [
    `removed ${r.removed.length} probe record${r.removed.length === 1 ? "" : "s"}`,
    ...r.left.map((x) => `left: ${x.kind} ${x.id} "${x.name}" (${x.error}); remove it with: ${removeCommand}`),
  ];
}

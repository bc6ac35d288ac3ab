/**
 * Reading a whole tenant as a catalogue, and the diff workflow (tenant or folder against tenant).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { KINDS, type Catalogue, type Kind } from "../model/catalogue.js";
import { versionMap, versionSources, type Config } from "../config/index.js";
import { loadManifests } from "../manifest/index.js";
import { readState } from "../state/index.js";
import { openBackend, readLedger } from "../state/backends/index.js";
import type { Plan } from "../plan/types.js";
import type { Ledger } from "../state/ledger.js";
import type { RemoteCatalogue } from "../model/remote.js";
import { remoteToCatalogue } from "../export/index.js";
import { translateVariables } from "../export/translate.js";
import { connect, pickTenant, type Connection } from "../tenant.js";
import { PimctlError, PimctlErrors, closeNames } from "../errors.js";
import { planAgainst, refuseUnknownKinds, refuseUnknownVersions } from "./plan.js";
import { narrow } from "../plan/finalise.js";
import { type ProjectOptions, connectOpts, projectConfig, prunePolicy } from "./project.js";

/** Read a whole tenant (or some kinds) and return it as a catalogue, with the ledger's write-only values (and the state and ledger it came from). */
export async function readTenantCatalogue(
  opts: ProjectOptions & { kinds?: Kind[] },
): Promise<{ catalogue: Catalogue; connection: Connection; config: Config; remote: RemoteCatalogue; ledger: Ledger }> {
  const config = await projectConfig(opts);
  const connection = await connect(config, opts.tenant, connectOpts(opts));
  try {
    // The ledger first: one this run cannot use (another base URL, a newer format) refuses before the whole read.
    const { ledger } = await readLedger(openBackend(config, connection.name, opts.env), connection.name, connection.baseUrl);
    const kinds = opts.kinds ?? [...KINDS];
    const remote = await readState(connection.api, {
      kinds,
      versionMap: versionMap(config, connection.tenant),
      versionAt: versionSources(config, connection.tenant),
      ...(opts.log ? { log: opts.log } : {}),
    });
    return { catalogue: remoteToCatalogue(remote, ledger), connection, config, remote, ledger };
  } catch (e) {
    // What is still in flight when a read fails is dropped, not read to the end.
    await connection.api.abort();
    throw e;
  } finally {
    await connection.api.close();
  }
}

export interface DiffOptions extends ProjectOptions {
  /** A tenant name, or a directory of manifests. */
  from: string;
  /** The tenant to compare against (made to look like `from`). */
  to: string;
  targets?: string[];
  excludes?: string[];
}

/**
 * What would change if `to` were made to look like `from`: a plan, never
 * applied. A source tenant's catalogue is translated from its variables to the
 * target's; the target is listed in full, so records only it has always show
 * (unmanaged, or deletes where the prune policy would delete them).
 */
export async function diff(opts: DiffOptions): Promise<Plan> {
  refuseUnknownKinds(opts.targets, opts.excludes);
  const config = await projectConfig(opts);
  // A mistyped --to is reported (with did-you-mean) before the ${variable} errors its missing values would cause.
  const target = pickTenant(config, opts.to).tenant;
  if (config.tenants[opts.from]) {
    // The target's token and ledger are checked before the source is read whole.
    const to = await connectWithLedger(config, opts.to, opts);
    let source: Catalogue;
    try {
      source = (await readTenantCatalogue({ ...opts, tenant: opts.from })).catalogue;
    } catch (e) {
      await to.connection.api.close();
      throw e;
    }
    return diffAgainst(to, config, translateVariables(source, config.tenants[opts.from]!.variables ?? {}, target.variables ?? {}), opts);
  }
  if (!existsSync(path.resolve(opts.cwd, opts.from))) {
    const close = closeNames(opts.from, Object.keys(config.tenants));
    throw new PimctlError("usage", `--from ${opts.from} is neither a configured tenant nor a directory`, {
      details: [close.length ? `did you mean: ${close.join(", ")}?` : `configured tenants: ${Object.keys(config.tenants).sort().join(", ") || "(none)"}`],
    });
  }
  const result = await loadManifests(path.resolve(opts.cwd, opts.from), {
    cwd: opts.cwd,
    variables: target.variables ?? {},
  });
  if (result.errors.length) throw new PimctlErrors(result.errors);
  return diffAgainst(await connectWithLedger(config, opts.to, opts), config, result.catalogue, opts);
}

/** Connect to a tenant and read its ledger, before anything is read from the tenant; closed again when the ledger refuses. */
async function connectWithLedger(config: Config, tenant: string, opts: ProjectOptions): Promise<{ connection: Connection; ledger: Ledger }> {
  const connection = await connect(config, tenant, connectOpts(opts));
  try {
    return { connection, ledger: (await readLedger(openBackend(config, connection.name, opts.env), connection.name, connection.baseUrl)).ledger };
  } catch (e) {
    await connection.api.close();
    throw e;
  }
}

/** Plan the target against `desired`, reading it whole; the connection is closed (its reads dropped on a refusal) before it returns. */
async function diffAgainst(to: { connection: Connection; ledger: Ledger }, config: Config, desired: Catalogue, opts: DiffOptions): Promise<Plan> {
  const { connection, ledger } = to;
  try {
    const early = await refuseUnknownVersions(connection, config, desired, opts);
    const { plan: p, remote } = await planAgainst(connection, config, desired, ledger, prunePolicy(config), opts, { listAll: true, ...early });
    return narrow(p, desired, remote, opts.targets ?? [], opts.excludes ?? []);
  } catch (e) {
    await connection.api.abort();
    throw e;
  } finally {
    await connection.api.close();
  }
}

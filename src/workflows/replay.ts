/**
 * `pimctl doctor --replay BUNDLE`: a support bundle's requests sent again to a tenant of the
 * config, only one on this machine (an emulator: a loopback base URL), since the bundle may hold
 * writes. What answers differently is where the emulator does not yet read API v1 as the tenant
 * that made the bundle did.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { isLoopbackHost } from "../api/options.js";
import type { Bundle } from "../bundle/bundle.js";
import { replay, type ReplayRow } from "../bundle/replay.js";
import { PimctlError } from "../errors.js";
import { connect, pickTenant, tenantBaseUrl } from "../tenant.js";
import { connectOpts, projectConfig, type ProjectOptions } from "./project.js";

export async function replayBundle(opts: ProjectOptions & { file: string }): Promise<{ tenant: string; baseUrl: string; rows: ReplayRow[] }> {
  const config = await projectConfig(opts);
  const picked = pickTenant(config, opts.tenant);
  const baseUrl = tenantBaseUrl(config, picked.name, picked.tenant);
  if (!isLoopbackHost(new URL(baseUrl).hostname)) {
    throw new PimctlError(
      "usage",
      `--replay sends a bundle's requests, writes included, to tenant "${picked.name}" at ${new URL(baseUrl).host}: only to an emulator on this ` +
        "machine (a loopback base URL, e.g. pimctl emulator --switches BUNDLE); nothing was sent",
    );
  }
  let bundle: Bundle;
  try {
    bundle = JSON.parse(await readFile(path.resolve(opts.cwd, opts.file), "utf8")) as Bundle;
  } catch (e) {
    throw new PimctlError("usage", `--replay ${opts.file}: cannot read it as a bundle (${(e as Error).message})`);
  }
  if (bundle.format !== "pimctl-bundle" || !Array.isArray(bundle.exchanges))
    throw new PimctlError("usage", `--replay ${opts.file}: not a pimctl support bundle (written by --bundle FILE)`);
  const connection = await connect(config, picked.name, connectOpts(opts));
  try {
    return { tenant: connection.name, baseUrl: connection.baseUrl, rows: await replay(connection.api, bundle) };
  } finally {
    await connection.api.close();
  }
}

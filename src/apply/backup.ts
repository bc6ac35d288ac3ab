/** --backup-profile: run an export (POST /exports), wait until it is done, download it before any write. */
import { writeFile } from "node:fs/promises";
import type { PimApi } from "../api/types.js";
import { PimctlError } from "../errors.js";

export async function backupExport(opts: {
  api: PimApi;
  profileId: number;
  outFile: string;
  pollMs?: number;
  timeoutMs?: number;
}): Promise<{ exportId: number; bytes: number }> {
  const started = await opts.api.createExport(opts.profileId);
  const deadline = Date.now() + (opts.timeoutMs ?? 10 * 60_000);
  let current = started;
  while (current.status !== "done") {
    if (current.status === "failed") throw new PimctlError("apply_failed", `the backup export ${current.id} failed on the tenant; nothing was written`);
    if (Date.now() > deadline)
      throw new PimctlError("apply_failed", `the backup export ${current.id} did not finish in time (status ${current.status}); nothing was written`);
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 250));
    current = await opts.api.getExport(started.id);
  }
  const data = await opts.api.downloadExport(current.file_url);
  await writeFile(opts.outFile, data);
  return { exportId: current.id, bytes: data.byteLength };
}

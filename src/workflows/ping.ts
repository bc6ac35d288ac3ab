/**
 * `pimctl ping`: is the tenant there, and does the token work.
 */
import { connect } from "../tenant.js";
import { type ProjectOptions, connectOpts, projectConfig } from "./project.js";

export async function ping(opts: ProjectOptions): Promise<{ tenant: string; baseUrl: string; time: string; ms: number }> {
  const config = await projectConfig(opts);
  const connection = await connect(config, opts.tenant, connectOpts(opts));
  try {
    const t0 = Date.now();
    const { time } = await connection.api.ping();
    return { tenant: connection.name, baseUrl: connection.baseUrl, time, ms: Date.now() - t0 };
  } finally {
    await connection.api.close();
  }
}

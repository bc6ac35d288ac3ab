/** Export jobs and their files (API v1: Exports). */
import { PimctlError } from "../../errors.js";
import { isLoopbackHost } from "../options.js";
import { parseRetryAfter } from "../retry.js";
import type { ApiSelf } from "../core.js";
import type * as T from "../types.js";

export const exportEndpoints = {
  /** Not retried after an ambiguous failure: a second export job would start. */
  createExport(this: ApiSelf, profileId: number): Promise<T.ApiExport> {
    return this.send("POST", "/exports", { profile_id: profileId }, "export");
  },
  getExport(this: ApiSelf, id: number): Promise<T.ApiExport> {
    return this.get(`/exports/${id}`, "export");
  },
  /**
   * The export file. `file_url` may be on the tenant's origin (sent with the token),
   * redirect to another host such as object storage, or answer 202 until the file is
   * ready. Another host never receives the tenant's token. An empty body or JSON that
   * does not parse is an error: a 0-byte backup must not pass for one.
   */
  async downloadExport(this: ApiSelf, fileUrl: string, opts: { readyTimeoutMs?: number } = {}): Promise<Uint8Array> {
    const base = new URL(this.baseUrl);
    let url = new URL(fileUrl, this.baseUrl);
    const deadline = Date.now() + (opts.readyTimeoutMs ?? 120_000);
    for (let hop = 0, wait = 0; ;) {
      const own = url.origin === base.origin;
      if (!own && url.protocol !== "https:" && !isLoopbackHost(url.hostname)) {
        throw new PimctlError("insecure_url", `the export file is on ${url.host} over plain http; refusing to download a backup unencrypted`);
      }
      const res = await this.download(url, own);
      const where = own ? url.pathname : `${url.origin}${url.pathname}`;
      if (res.status >= 300 && res.status < 400) {
        const loc = res.headers.location;
        const target = Array.isArray(loc) ? loc[0] : loc;
        if (!target || ++hop > 5)
          throw new PimctlError("api_protocol", `the export download redirected ${target ? "too many times" : "without a Location"} (${where})`);
        url = new URL(target, url);
        continue;
      }
      if (res.status === 202) {
        if (Date.now() > deadline) throw new PimctlError("apply_failed", `the export file at ${where} was still not ready (202) when the wait ran out`);
        const ra = res.headers["retry-after"];
        await new Promise((r) => setTimeout(r, Math.min(5_000, parseRetryAfter(Array.isArray(ra) ? ra[0] : ra) ?? 250 * 2 ** Math.min(4, wait++))));
        continue;
      }
      if (res.status >= 400) throw this.httpError("GET", where, { status: res.status, headers: res.headers, text: Buffer.from(res.buf).toString("utf8") });
      if (res.buf.byteLength === 0) throw new PimctlError("api_protocol", `the export download from ${where} was empty (0 bytes); not saving it as a backup`);
      const type = String(res.headers["content-type"] ?? "");
      if (type.includes("json") || res.buf[0] === 0x7b || res.buf[0] === 0x5b) {
        try {
          JSON.parse(Buffer.from(res.buf).toString("utf8"));
        } catch {
          throw new PimctlError(
            "api_protocol",
            `the export download from ${where} is not valid JSON (${res.buf.byteLength} bytes, truncated?); not saving it as a backup`,
          );
        }
      }
      return res.buf;
    }
  },
};

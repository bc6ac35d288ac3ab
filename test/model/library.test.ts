import { describe, expect, it } from "vitest";
import * as pimctl from "../../src/index.js";

describe("the library entry point", () => {
  it("exports the workflows and every stage", () => {
    for (const name of [
      "plan",
      "apply",
      "diff",
      "exportTenant",
      "ping",
      "loadConfig",
      "loadManifests",
      "createClient",
      "readState",
      "buildPlan",
      "applyPlan",
      "renderPlan",
      "startEmulator",
      "PimctlError",
    ]) {
      expect(typeof (pimctl as Record<string, unknown>)[name], name).toBe("function");
    }
  });
});

describe("the emulator subpath export (pimctl/emulator)", () => {
  it("resolves through package.json exports and starts a tenant that answers over HTTP", async () => {
    // Self-reference by package name goes through "exports", as an installed package would.
    const { startEmulator } = (await import("pimctl/emulator" as string)) as typeof import("../../src/emulator/index.js");
    const emu = await startEmulator({ port: 0, tenants: [{ hash: "lib", token: "t" }], latencyMs: 0 });
    try {
      const res = await fetch(`${emu.tenantUrl("lib")}/ping`, { headers: { authorization: "Bearer t" } });
      expect(res.status).toBe(200);
      expect(typeof ((await res.json()) as { time: unknown }).time).toBe("string");
    } finally {
      await emu.close();
    }
  });
});

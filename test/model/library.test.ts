import { describe, expect, it } from "vitest";
import * as pimctl from "../../src/index.js";

describe("the library entry point", () => {
  it("exports the workflows and every stage", () => {
    for (const name of ["plan", "apply", "diff", "exportTenant", "ping", "loadConfig", "loadManifests", "createClient", "readState", "buildPlan", "applyPlan", "renderPlan", "startEmulator", "PimctlError"]) {
      expect(typeof (pimctl as Record<string, unknown>)[name], name).toBe("function");
    }
  });
});

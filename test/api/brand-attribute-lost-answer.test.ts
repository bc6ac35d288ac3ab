/** A brand attribute value written, its answer dropped: apply re-reads and adopts it instead of reporting a failure. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import { brandAttributeValues } from "../../src/emulator/kinds/brands.js";

let p: TestProject;
beforeAll(async () => {
  p = await testProject({
    files: {
      "catalogue/a.yaml": [
        "attributes:",
        "  - name: Material",
        "    type: text",
        "brands:",
        "  - name: Acme",
        "    attributes: { Material: { value: Steel } }",
        "",
      ].join("\n"),
    },
  });
});
afterAll(async () => p.close());

describe("POST /brands/<id>/attributes committed, answer lost", () => {
  it("is adopted after a re-read: exit 0, the value stored once, and the next plan is empty", async () => {
    p.emulator.injectFaults([{ method: "POST", route: "/brands/:id/attributes", mode: "drop_after_commit" }]);
    const r = await p.cli(["apply", "--auto-approve"]);
    expect(
      Object.values(p.emulator.stats().faults).reduce((a, b) => a + b, 0),
      "the fault fired",
    ).toBe(1);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/failed: /);
    const brand = [...p.emulator.store("demo").brands.values()].find((b) => b.name === "Acme")!;
    expect(brandAttributeValues(p.emulator.store("demo"), brand.id).map((v) => v.value)).toEqual(["Steel"]);
    expect((await p.cli(["plan", "--detailed-exitcode"])).code).toBe(0);
  });
});

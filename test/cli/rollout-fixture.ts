/** What the rollout tests share: the manifests, a tenant that refuses writes, and reading the final table. */
import type { TestProject } from "../helpers/project.js";
import { HttpError } from "../../src/emulator/errors.js";

export const BRANDS = "brands:\n  - name: Acme\n    desc: Tools\n  - name: Zenith\n    desc: Watches\n";

/** The tenants refuse to create brands (422, not retried): their apply fails at once. Returns the undo. */
export function refuseBrands(project: TestProject, ...tenants: string[]): () => void {
  project.emulator.onRequest(({ tenant: t, method, route }) => {
    if (tenants.includes(t) && method === "POST" && route === "/brands") throw new HttpError(422, { message: "Brands are frozen on this tenant." });
  });
  return () => project.emulator.onRequest(undefined);
}

export const brandNames = (project: TestProject, tenant: string) => [...project.emulator.store(tenant).brands.values()].map((b) => b.name).sort();

/** The table's row of a tenant: its cells split on runs of spaces. */
export function row(stderr: string, tenant: string): string[] {
  const line = stderr.split("\n").find((l) => new RegExp(`^  \\d+\\s+${tenant}\\s`).test(l));
  if (!line) throw new Error(`no row for ${tenant} in:\n${stderr}`);
  return line.trim().split(/\s{2,}/);
}

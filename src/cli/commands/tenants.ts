import type { CommandModule } from "yargs";
import { listTenants, type TenantList } from "../../workflows/tenants.js";
import type { Io } from "../io.js";
import { configPathFor, withProjectOptions, type GlobalArgs } from "../options.js";
import { escapeControls, jsonText } from "../../base/controls.js";

interface TenantsArgs extends GlobalArgs {
  format: "text" | "json";
}

export function tenantsCommand(io: Io): CommandModule<object, TenantsArgs> {
  return {
    command: "tenants",
    describe: "List the configured tenants (or those --tenant selects) with their rollout wave and overlay; JSON for a CI matrix",
    builder: (y) =>
      withProjectOptions(y)
        .option("format", {
          alias: "f",
          choices: ["text", "json"] as const,
          default: "text" as const,
          describe: 'text for people; json {"tenants":[{"name","wave"}...],"waves":[[...]...]} for strategy.matrix via fromJSON',
          group: "Output and network:",
        })
        .example("$0 tenants --tenant 'prod-*' --format json", "The matrix of a fan-out pipeline: fromJSON(...).tenants") as never,
    handler: async (args) => {
      const configPath = configPathFor(args, io);
      const list = await listTenants({
        cwd: io.cwd,
        ...(configPath ? { configPath } : {}),
        ...(args.dir ? { dir: args.dir } : {}),
        ...(args.tenant ? { tenant: args.tenant } : {}),
      });
      io.stdout(args.format === "json" ? tenantsJson(list) : tenantsText(list));
    },
  };
}

/** The matrix form: only name and wave per tenant (each becomes matrix.tenant.name, matrix.tenant.wave). */
function tenantsJson(list: TenantList): string {
  return `${jsonText({ tenants: list.tenants.map((t) => ({ name: t.name, wave: t.wave })), waves: list.waves })}\n`;
}

/** One line per tenant in rollout order: wave, name, overlay. */
function tenantsText(list: TenantList): string {
  const rows = list.tenants.map((t) => [String(t.wave), t.name, t.overlay ?? "-"]);
  const head = ["wave", "tenant", "overlay"];
  const width = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(width[c]!))).join("  ");
  return `${[head, ...rows].map((r) => escapeControls(line(r))).join("\n")}\n`;
}

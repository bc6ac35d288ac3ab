import type { CommandModule } from "yargs";
import { PimctlError } from "../../errors.js";
import { plural } from "../../plural.js";
import { EXPORT_FORMATS, type ExportFormat } from "../../translations/formats/units.js";
import { STATUS_FORMATS, renderFleetStatus, renderStatus, type StatusFormat } from "../../translations/render-status.js";
import { fleetTranslationsStatus, severalTenants } from "../../workflows/fleet-commands.js";
import { belowThreshold, type StatusReport } from "../../translations/status.js";
import { translationsExport, translationsImport, translationsMarkReviewed, translationsStatus } from "../../workflows/translations.js";
import { EXIT, ExitWith } from "../exit-codes.js";
import type { Io } from "../io.js";
import { projectOptions, say, withProjectOptions, type GlobalArgs } from "../options.js";

interface TranslationsArgs extends GlobalArgs {
  language?: string[];
  format?: string;
  "fail-under"?: number;
  missing?: boolean;
  outdated?: boolean;
  out?: string;
  "source-lang"?: string;
  "target-lang"?: string;
  file?: string;
  "dry-run"?: boolean;
  addresses?: string[];
  all?: boolean;
}

/** The handler as given, or one that does nothing when the command line is only parsed (parseOnly). */
type Handle = (handler: (args: TranslationsArgs) => Promise<void>) => (args: TranslationsArgs) => Promise<void>;
const sub = (m: CommandModule<object, TranslationsArgs>) => m as unknown as CommandModule;

/** `pimctl translations <command>`: coverage, and the round trip to translators (XLIFF, PO, CSV) and back into the manifests. */
export function translationsCommand(io: Io, opts: { parseOnly?: boolean } = {}): CommandModule<object, TranslationsArgs> {
  const run: Handle = (handler) => (opts.parseOnly ? async () => undefined : handler);
  return {
    command: "translations <command>",
    describe: "Translation coverage per language version; export to translators (XLIFF, PO, CSV) and import their work into the manifests",
    builder: (y) =>
      withProjectOptions(y)
        .command(sub(statusCommand(io, run)))
        .command(sub(exportCommand(io, run)))
        .command(sub(importCommand(io, run)))
        .command(sub(markReviewedCommand(io, run)))
        .demandCommand(1, "Name a translations command: status, export, import or mark-reviewed.")
        .example("$0 translations status", "Coverage of every language version")
        .example("$0 translations export --language Spanish --format po --out es.po", "Hand Spanish to a translator") as never,
    handler: () => undefined,
  };
}

/** `translations status`: coverage per language version and kind; --fail-under gates it. */
function statusCommand(io: Io, run: Handle): CommandModule<object, TranslationsArgs> {
  return {
    command: "status",
    describe: "Per language version and kind: texts translated, missing, and outdated (the master text changed since)",
    builder: (b) =>
      b
        .option("language", {
          type: "string",
          array: true,
          describe: "Only these language versions, by name (default: every version the manifests name, and translations.required)",
        })
        .option("format", {
          alias: "f",
          choices: STATUS_FORMATS,
          default: "text" as StatusFormat,
          describe: "text for people, markdown for a pull request, json for programs",
        })
        .option("fail-under", {
          type: "string",
          describe: "Exit 3 when a reported version has fewer than PERCENT (0 to 100) of its texts translated",
          // A gate that silently reads "abc" or "100%" as no gate would pass every pull request.
          coerce: (v: string) => {
            const n = Number(v);
            if (v.trim() === "" || !Number.isFinite(n) || n < 0 || n > 100)
              throw new PimctlError("usage", `--fail-under takes a number from 0 to 100 (a percentage, without %), not ${JSON.stringify(v)}`);
            return n;
          },
        })
        .example("$0 translations status --language German", "German's coverage, with every missing and outdated text by address")
        .example("$0 translations status --fail-under 100 --format markdown", "A pipeline step that fails while a version is behind") as never,
    handler: run(async (args: TranslationsArgs) => {
      const opts = { ...projectOptions(args, io), ...(args.language ? { languages: args.language } : {}) };
      const several = await severalTenants(opts);
      const format = args.format as StatusFormat;
      const fleet = several ? await fleetTranslationsStatus(opts, several) : undefined;
      const reports: Array<{ tenant?: string; report: StatusReport }> = fleet ?? [{ report: await translationsStatus(opts) }];
      io.stdout(fleet ? renderFleetStatus(fleet, format) : renderStatus(reports[0]!.report, format));
      const limit = args["fail-under"];
      if (limit === undefined) return;
      const below = reports.flatMap((r) => belowThreshold(r.report, limit).map((v) => ({ ...v, tenant: r.tenant })));
      for (const v of below) say(args, io, `${v.tenant ? `${v.tenant}: ` : ""}${v.version}: ${v.percent}% translated, under --fail-under ${limit}`);
      if (below.length) throw new ExitWith(EXIT.policy);
    }),
  };
}

/** `translations export`: one language version's texts for translators. */
function exportCommand(io: Io, run: Handle): CommandModule<object, TranslationsArgs> {
  return {
    command: "export",
    describe: "Write one language version's texts for translators: one unit per text, its id the text's address",
    builder: (b) =>
      b
        .option("language", { type: "string", array: true, demandOption: true, describe: "The language version, by name (French)" })
        .option("format", {
          alias: "f",
          choices: EXPORT_FORMATS,
          default: "xliff" as ExportFormat,
          describe: "xliff (1.2), xliff2 (2.0), po (gettext) or csv",
        })
        .option("missing", { type: "boolean", describe: "Only texts with no translation (with --outdated: those and the outdated ones)" })
        .option("outdated", { type: "boolean", describe: "Only translations whose master text changed since they were made" })
        .option("out", { alias: "o", type: "string", describe: "File to write (default: stdout)" })
        .option("source-lang", { type: "string", describe: "Language code of the master texts in the file's header (default en)" })
        .option("target-lang", {
          type: "string",
          describe: "Language code of the version in the file's header (default: from its name, Spanish -> es)",
        })
        .example("$0 translations export --language Spanish --format po --missing --out es.po", "What Spanish still lacks, for Poedit or a TMS")
        .example("$0 translations export --language German --format xliff2 --outdated --out de.xlf", "German texts to review") as never,
    handler: run(async (args: TranslationsArgs) => {
      if (args.language!.length !== 1) throw new PimctlError("usage", "export writes one language version: give --language once");
      const r = await translationsExport({
        ...projectOptions(args, io),
        language: args.language![0]!,
        format: args.format as ExportFormat,
        ...(args.missing ? { missing: true } : {}),
        ...(args.outdated ? { outdated: true } : {}),
        ...(args.out ? { out: args.out } : {}),
        ...(args["source-lang"] ? { sourceLang: args["source-lang"] } : {}),
        ...(args["target-lang"] ? { targetLang: args["target-lang"] } : {}),
      });
      if (!args.out) io.stdout(r.text);
      else say(args, io, `Wrote ${plural(r.units, "unit")} for ${args.language![0]} to ${args.out}.`);
      if (r.leftOut.count) say(args, io, `Left out ${plural(r.leftOut.count, "brand and category text")}: ${r.leftOut.reason}.`);
    }),
  };
}

/** `translations import FILE`: a translated file's targets into the manifests. */
function importCommand(io: Io, run: Handle): CommandModule<object, TranslationsArgs> {
  return {
    command: "import <file>",
    describe: "Write a translated file's targets into the manifests, changing only those lines; record them in translations.lock.yaml",
    builder: (b) =>
      b
        .positional("file", { type: "string", describe: "An XLIFF (1.2 or 2.0), PO or CSV file from 'translations export'" })
        .option("dry-run", { type: "boolean", describe: "Print the manifests' diff; write nothing" })
        .example("$0 translations import es.po", "Spanish from the translator into the manifests")
        .example("$0 translations import de.xlf --dry-run", "Show what would change") as never,
    handler: run(async (args: TranslationsArgs) => {
      const r = await translationsImport({ ...projectOptions(args, io), file: args.file!, ...(args["dry-run"] ? { dryRun: true } : {}) });
      for (const line of r.earlier) say(args, io, `note: ${line}`);
      if (args["dry-run"]) io.stdout(r.diff);
      for (const s of r.stale) say(args, io, `stale, not written: ${s.id}: ${s.reason}`);
      for (const id of r.not_reviewed) say(args, io, `still marked for review, not written: ${id}`);
      for (const s of r.refused) say(args, io, `refused, not written: ${s.id}: ${s.reason}`);
      const verb = args["dry-run"] ? "Would write" : "Wrote";
      say(
        args,
        io,
        `${verb} ${plural(r.written.length, "translation")} into ` +
          `${plural(r.files.length, "file")}${r.files.length ? ` (${r.files.join(", ")})` : ""}; ${r.unchanged} unchanged, ${r.empty} ` +
          `empty, ${r.stale.length} stale, ${r.not_reviewed.length} still marked for review` +
          `${r.refused.length ? `, ${r.refused.length} refused` : ""}${args["dry-run"] ? "" : `; ${r.lockFile} updated`}.`,
      );
      // Units not written (stale, still marked for review, refused) are work not done: a pipeline must see it.
      if (r.stale.length || r.not_reviewed.length || r.refused.length) throw new ExitWith(EXIT.partial);
    }),
  };
}

/** `translations mark-reviewed`: translations recorded as made against today's master texts. */
function markReviewedCommand(io: Io, run: Handle): CommandModule<object, TranslationsArgs> {
  return {
    command: "mark-reviewed [addresses..]",
    describe: "Record translations as made against today's master texts (they stop being outdated)",
    builder: (b) =>
      b
        .positional("addresses", { type: "string", array: true, describe: 'Unit ids or records: attribute["Colour"] marks all of its texts' })
        .option("language", { type: "string", array: true, describe: "Only these language versions" })
        .option("all", { type: "boolean", describe: "Every present translation (adopting an existing catalogue)" })
        .example("$0 translations mark-reviewed 'attribute[\"Colour\"]' --language German", "German's Colour texts were checked")
        .example("$0 translations mark-reviewed --all", "Start tracking: today's translations are current") as never,
    handler: run(async (args: TranslationsArgs) => {
      const r = await translationsMarkReviewed({
        ...projectOptions(args, io),
        addresses: args.addresses ?? [],
        ...(args.language ? { languages: args.language } : {}),
        ...(args.all ? { all: true } : {}),
      });
      for (const line of r.earlier) say(args, io, `note: ${line}`);
      say(args, io, `Marked ${plural(r.marked.length, "translation")} reviewed in ${r.lockFile}.`);
    }),
  };
}

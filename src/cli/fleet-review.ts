/**
 * Printing a fleet's combined review, the one code path of `plan --tenant GLOB` and `pimctl show
 * FILE...`: the same FleetPlan gives the same bytes in every format, whichever command made it.
 * Then the exit code: the worst of the tenants' (1 over 3 over 2 over 0).
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { FleetPlan } from "../plan/fleet.js";
import { worstExit } from "../plan/fleet.js";
import { policyViolation, type PolicyGates } from "../plan/policy.js";
import type { Format, PageFacts, RenderOptions } from "../render/index.js";
import { renderFleet } from "../render/fleet/index.js";
import { escapeControls } from "../base/controls.js";
import { EXIT, ExitWith } from "./exit-codes.js";
import type { Io } from "./io.js";
import { colorFor, say, type GlobalArgs } from "./options.js";
import { appendStepSummary } from "./pipeline-output.js";

export interface ReviewArgs extends GlobalArgs {
  format: Format;
  "print-to"?: string;
  html?: string;
  "detailed-exitcode"?: boolean;
  compact?: boolean;
  summary?: boolean;
  "show-unmanaged"?: boolean;
}

/** Render the review in --format (stdout or --print-to), the HTML page to --html, the markdown to the job summary. */
export async function printFleetReview(fleet: FleetPlan, args: ReviewArgs, io: Io, page: PageFacts | undefined): Promise<void> {
  await printReview((format, opts) => renderFleet(fleet, format, opts), args, io, page);
}

/** The same for any review: a fleet's, or one tenant's plan (`noun` "plan": what --print-to says it wrote). */
export async function printReview(
  render: (format: Format, opts: RenderOptions) => string,
  args: ReviewArgs,
  io: Io,
  page: PageFacts | undefined,
  noun = "review",
): Promise<void> {
  appendStepSummary(io, () => render("markdown", { color: false }));
  const rendered = render(args.format, {
    color: args.format === "text" && colorFor(args, io),
    ...(args.compact ? { compact: true } : {}),
    ...(args.summary ? { summary: true } : {}),
    ...(args["show-unmanaged"] ? { showUnmanaged: true } : {}),
    ...(page ? { page } : {}),
  });
  if (args.html) {
    await writeFile(path.resolve(io.cwd, args.html), render("html", { color: false, ...(page ? { page } : {}) }));
    say(args, io, `Wrote the review page to ${args.html}.`);
  }
  if (args["print-to"]) {
    await writeFile(path.resolve(io.cwd, args["print-to"]), rendered);
    say(args, io, `Wrote the ${args.format} ${noun} to ${args["print-to"]}.`);
  } else {
    io.stdout(rendered);
  }
}

/**
 * The run's exit code from its tenants': an error in any tenant is 1, a policy gate or refusal 3;
 * with --detailed-exitcode, changes in any tenant 2. Each failed tenant is named on stderr.
 */
export function fleetExit(fleet: FleetPlan, args: Pick<ReviewArgs, "detailed-exitcode">, io: Io, gates: PolicyGates = {}): void {
  for (const t of fleet.tenants) {
    const name = escapeControls(t.tenant);
    if (t.error) io.stderr(`error: tenant "${name}" could not be planned: ${escapeControls(t.error.message)}\n`);
    else if (t.exit === 3) io.stderr(`error: tenant "${name}": ${(t.plan && policyViolation(t.plan, gates)) ?? "its plan was saved failing a policy gate"}\n`);
  }
  const worst = worstExit(fleet.tenants.map((t) => t.exit));
  if (worst === 1) throw new ExitWith(EXIT.error);
  if (worst === 3) throw new ExitWith(EXIT.policy);
  if (worst === 2 && args["detailed-exitcode"]) throw new ExitWith(EXIT.changes);
}

/**
 * Control characters in data are shown as escapes by every renderer and the
 * error formatter (src/base/controls.ts), and pimctl's own colours stay.
 */
import { describe, expect, it } from "vitest";
import { PimctlError } from "../../src/errors.js";
import { buildPlan } from "../../src/plan/planner.js";
import type { Plan } from "../../src/plan/types.js";
import { escapeControls, escapeJsonText, jsonText } from "../../src/base/controls.js";
import { renderApplySummary } from "../../src/render/apply-summary.js";
import { renderDrift } from "../../src/render/drift.js";
import { renderCodeClimate, renderGithubAnnotations, renderProblemsJson, problemsOf } from "../../src/render/errors.js";
import { renderPlan } from "../../src/render/index.js";
import type { DriftReport } from "../../src/drift/index.js";
import { desired, ledger, prune, remote } from "../fixtures/plan/every-action.js";

/** ESC sequences, BEL, CR, DEL, C1 (CSI, NEL), bidi override and isolate, and a line break that would forge a line. */
const HOSTILE = "\u001b[2K\u001b[1A\u0007\r\u007f\u009b1m\u0085\u202e\u2066\nFORGED";
const HOSTILE_SHOWN = "\\u001b[2K\\u001b[1A\\u0007\\r\\u007f\\u009b1m\\u0085\\u202e\\u2066\\nFORGED";
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** chalk at level 1: what pimctl's own colours look like. */
const OWN_COLOURS = /\u001b\[(?:1|2|22|3[1-9])m/g;

/** Every string of a plan made hostile but the enumerations renderers switch on, so each field a renderer prints is tested. */
function poisoned(plan: Plan): Plan {
  const keep = new Set(["op", "kind", "type", "via", "format_version"]);
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === "string") return key !== undefined && keep.has(key) ? v : `${v}${HOSTILE}`;
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return walk(plan) as Plan;
}

const { plan } = buildPlan({ tenant: "demo", desired, remote, ledger, prune });
const hostile = poisoned(plan);

describe("escapeControls", () => {
  it("shows C0, DEL, C1 and bidi controls as JSON writes them, and nothing else", () => {
    expect(escapeControls("a\u001b[2Kb\u0007c\u0000\t\r\n\b\f")).toBe("a\\u001b[2Kb\\u0007c\\u0000\\t\\r\\n\\b\\f");
    expect(escapeControls("\u007f\u0080\u0085\u009b\u009f")).toBe("\\u007f\\u0080\\u0085\\u009b\\u009f");
    expect(escapeControls("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")).toBe("\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069");
    // Letters, marks, emoji, no-break and ideographic space, a backslash, the bidi marks that override nothing: as they are.
    const plain = "Café Ünïcödé 東京 🚲 \u00a0\u3000 back\\slash \u200e\u200f \u2028";
    expect(escapeControls(plain)).toBe(plain);
  });
  it("keeps line breaks that are layout when asked, and is idempotent", () => {
    expect(escapeControls("one\ntwo\u001b", { keepNewlines: true })).toBe("one\ntwo\\u001b");
    const once = escapeControls(HOSTILE);
    expect(RAW.test(once)).toBe(false);
    expect(escapeControls(once)).toBe(once);
    expect(once).toBe(HOSTILE_SHOWN);
  });
  it("JSON text: the same document, with DEL, C1 and bidi escaped too; JSON's white space left", () => {
    const value = { name: HOSTILE, list: [HOSTILE] };
    const text = jsonText(value, 2);
    expect(RAW.test(text)).toBe(false);
    expect(JSON.parse(text)).toEqual(value);
    expect(escapeJsonText('{\t"a":\r\n"\u202e"}')).toBe('{\t"a":\r\n"\\u202e"}');
  });
});

describe("plan renderers on a plan whose every string carries control characters", () => {
  const variants: Array<[string, string]> = [
    ["text", renderPlan(hostile, "text", { color: false, showUnmanaged: true })],
    ["text, compact", renderPlan(hostile, "text", { color: false, compact: true })],
    ["markdown", renderPlan(hostile, "markdown", { color: false, showUnmanaged: true })],
    ["markdown, compact", renderPlan(hostile, "markdown", { color: false, compact: true })],
    ["json", renderPlan(hostile, "json", { color: false })],
    ["html", renderPlan(hostile, "html", { color: false })],
  ];
  it.each(variants)("%s: no raw control character, no forged line, the escaped form shown", (name, out) => {
    expect(out.match(RAW)).toBeNull();
    // The page keeps a long text's line breaks (its word diff wraps as the text does); a browser draws no line from them.
    if (name !== "html") expect(out).not.toMatch(/^FORGED/m);
    expect(out).toContain("\\u001b[2K\\u001b[1A\\u0007");
  });
  it("text in colour: pimctl's colours stay, the data's sequences are shown", () => {
    const out = renderPlan(hostile, "text", { color: true, showUnmanaged: true });
    expect(out).toContain("\u001b[32m+\u001b[39m");
    expect(out.replace(OWN_COLOURS, "").match(RAW)).toBeNull();
    expect(out).toContain(`\u001b[1mPlan for tenant "demo${HOSTILE_SHOWN}"\u001b[22m`);
  });
  it("long text: one diff line per line of the text, each escaped", () => {
    const out = renderPlan(hostile, "text", { color: false });
    // The fixture's long description, changed: its lines end in the hostile text, whose own line break is the text's.
    expect(out).toMatch(/^ {8}[-+].*\\u001b\[2K\\u001b\[1A\\u0007\\r\\u007f\\u009b1m\\u0085\\u202e\\u2066$/m);
  });
});

describe("errors, warnings, summaries and drift reports", () => {
  const located = new PimctlError("duplicate", `brand "${HOSTILE}" is declared twice`, {
    location: { file: `a${HOSTILE}.yaml`, line: 3, column: 5 },
    details: [`did you mean "${HOSTILE}"?`],
  });
  const requested = new PimctlError("api_unprocessable", `The name "${HOSTILE}" is taken`, {
    request: { method: "POST", path: `/brands${HOSTILE}`, status: 422, tenant: `t${HOSTILE}` },
  });

  it("PimctlError.format: every line escaped, the detail lines still lines", () => {
    const text = located.format();
    expect(text.match(RAW)).toBeNull();
    expect(text).toBe(`a${HOSTILE_SHOWN}.yaml:3:5: brand "${HOSTILE_SHOWN}" is declared twice\n  did you mean "${HOSTILE_SHOWN}"?`);
    expect(requested.format()).toBe(`POST /brands${HOSTILE_SHOWN} (422) [tenant t${HOSTILE_SHOWN}]: The name "${HOSTILE_SHOWN}" is taken`);
  });

  it("problems as JSON, code quality and GitHub annotations", () => {
    const problems = problemsOf([located, requested], [new PimctlError("schema", `warned ${HOSTILE}`)]);
    const json = renderProblemsJson(problems);
    expect(json.match(RAW)).toBeNull();
    expect((JSON.parse(json) as { errors: Array<{ message: string }> }).errors[0]!.message).toBe(`brand "${HOSTILE}" is declared twice`);
    expect(renderCodeClimate(problems).match(RAW)).toBeNull();
    const annotations = renderGithubAnnotations(problems);
    expect(annotations.replace(/\n$/gm, "").match(RAW)).toBeNull();
    // One workflow command per problem; the message's line break is shown. The hint's lines are
    // GitHub's %0A, and a line break inside a detail reads as one of them (the hint joins the details).
    expect(annotations.split("\n").filter(Boolean)).toHaveLength(3);
    expect(annotations).toContain(`::brand "${HOSTILE_SHOWN}" is declared twice%0Adid you mean "${HOSTILE_SHOWN.replace("\\n", "%0A")}"?`);
  });

  it("the apply summary and drift reports", () => {
    const summary = renderApplySummary(
      `t${HOSTILE}`,
      {
        counts: { done: 0, failed: 1, skipped: 1, unsupported: 0 },
        duration_ms: 10,
        results: [
          { address: `brand["${HOSTILE}"]`, status: "failed", error: { message: `refused ${HOSTILE}` } },
          { address: `brand["b${HOSTILE}"]`, status: "skipped", reason: `needs ${HOSTILE}` },
        ],
      } as never,
      { mismatches: [{ address: `brand["${HOSTILE}"]`, fields: [`desc${HOSTILE}`] }] },
    );
    expect(summary.match(RAW)).toBeNull();
    expect(summary).not.toMatch(/^FORGED/m);
    expect(summary).toContain(`- failed: \`brand["${HOSTILE_SHOWN}"]\`: refused ${HOSTILE_SHOWN}`);

    const report = {
      format_version: "1.0",
      tenant: `t${HOSTILE}`,
      checked_at: "2026-11-20T10:00:00Z",
      feed: { entity_types: ["brand"], since: `s${HOSTILE}` },
      items: [
        {
          address: `brand["${HOSTILE}"]`,
          kind: "brands",
          op: "update",
          fields: [`desc${HOSTILE}`],
          changelog_id: 7,
          change_type: "full",
          changed_at: `2026${HOSTILE}`,
          note: `n${HOSTILE}`,
        },
      ],
    } as unknown as DriftReport;
    for (const format of ["text", "markdown", "json"] as const) {
      const out = renderDrift(report, format);
      expect(out.match(RAW), format).toBeNull();
      expect(out, format).not.toMatch(/^FORGED/m);
    }
    expect(renderDrift(report, "text")).toContain(`brand["${HOSTILE_SHOWN}"]: desc${HOSTILE_SHOWN} changed`);
  });
});

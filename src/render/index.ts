/** Renderers by format name: each turns one Plan into a string and never prints. */
import type { Plan } from "../plan/types.js";
import type { RenderOptions } from "./common.js";
import { renderHtml } from "./html/index.js";
import { renderJson } from "./json.js";
import { renderMarkdown } from "./markdown.js";
import { renderText } from "./text.js";

export type { RenderOptions } from "./common.js";
export { summaryLine } from "./common.js";
export type { PageFacts } from "./html/index.js";

export const FORMATS = ["text", "markdown", "json", "html"] as const;
export type Format = (typeof FORMATS)[number];

const renderers: Record<Format, (plan: Plan, opts: RenderOptions) => string> = {
  text: renderText,
  markdown: renderMarkdown,
  json: (plan) => renderJson(plan),
  html: renderHtml,
};

export function renderPlan(plan: Plan, format: Format, opts: RenderOptions): string {
  return renderers[format](plan, opts);
}

/**
 * Colour only where a person reads a terminal: off for NO_COLOR (any value),
 * for --no-color, and when the output is not a TTY; FORCE_COLOR turns it on.
 */
export function wantColor(opts: { isTTY: boolean; env: NodeJS.ProcessEnv; noColor?: boolean }): boolean {
  if (opts.noColor) return false;
  if (opts.env.NO_COLOR !== undefined && opts.env.NO_COLOR !== "") return false;
  if (opts.env.FORCE_COLOR !== undefined && opts.env.FORCE_COLOR !== "0") return true;
  return opts.isTTY;
}

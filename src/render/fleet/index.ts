/**
 * The combined review of a fleet plan (issue 35), by format name as renderPlan is: the same function
 * of the same FleetPlan whether it was planned in one run or read back from saved files (`pimctl show`).
 */
import type { FleetPlan } from "../../plan/fleet.js";
import { jsonText } from "../../base/controls.js";
import type { RenderOptions } from "../common.js";
import type { Format } from "../index.js";
import { publicFleet } from "./common.js";
import { renderFleetHtml } from "./html.js";
import { renderFleetMarkdown } from "./markdown.js";
import { renderFleetText } from "./text.js";

const renderers: Record<Format, (fleet: FleetPlan, opts: RenderOptions) => string> = {
  text: renderFleetText,
  markdown: renderFleetMarkdown,
  json: (fleet) => `${jsonText(publicFleet(fleet), 2)}\n`,
  html: renderFleetHtml,
};

export function renderFleet(fleet: FleetPlan, format: Format, opts: RenderOptions): string {
  return renderers[format](fleet, opts);
}

/**
 * The registry of kind planners, in the order they run. Later kinds refer to
 * earlier ones by name (attributes to display groups, sets to attributes,
 * brands and categories to both), so each finds the references it needs
 * already in the context; the order of actions in the plan comes from their
 * edges (src/plan/edges.ts, src/plan/order.ts), not from this list.
 */
import { attributeSets } from "./attribute-sets.js";
import { attributes } from "./attributes.js";
import { blocks } from "./blocks.js";
import { brands } from "./brands.js";
import { categories } from "./categories.js";
import { displayGroups } from "./display-groups.js";
import type { KindPlanner } from "./kind.js";

export type { KindPlanner } from "./kind.js";

export const KIND_PLANNERS: readonly KindPlanner[] = [displayGroups, attributes, attributeSets, blocks, brands, categories];

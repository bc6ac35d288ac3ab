/**
 * The registry of kinds: their routes in the router's order (a tie between two patterns
 * goes to the earlier one, and a 405's Allow lists methods in this order). Each kind's
 * records' rules are plain functions of the store, exported by its own file.
 */
import type { RouteSpec } from "../request.js";
import { attributeRoutes } from "./attributes.js";
import { attributeSetRoutes } from "./attribute-sets.js";
import { blockRoutes } from "./blocks.js";
import { brandRoutes } from "./brands.js";
import { categoryRoutes } from "./categories.js";
import { changelogRoutes } from "./changelogs.js";
import { channelRoutes } from "./channels.js";
import { displayGroupRoutes } from "./display-groups.js";
import { exportRoutes } from "./exports.js";
import { genericEntityRoutes } from "./generic-entities.js";

export const KIND_ROUTES: readonly RouteSpec[] = [
  ...attributeRoutes, // with the type value routes
  ...attributeSetRoutes,
  ...blockRoutes,
  ...brandRoutes, // with the brand asset and web id routes
  ...categoryRoutes, // with the category asset and web id routes
  ...changelogRoutes,
  ...channelRoutes,
  ...displayGroupRoutes,
  ...exportRoutes,
  ...genericEntityRoutes,
];

/**
 * The registry of kinds: their routes in the router's order (a tie between two patterns
 * goes to the earlier one, and a 405's Allow lists methods in this order), and their
 * records' rules, which TenantStore (store.ts) offers as methods.
 */
import type { RouteSpec } from "../request.js";
import { assetRecords } from "./assets.js";
import { attributeRecords, attributeRoutes } from "./attributes.js";
import { attributeSetRecords, attributeSetRoutes } from "./attribute-sets.js";
import { blockRecords, blockRoutes } from "./blocks.js";
import { brandRecords, brandRoutes } from "./brands.js";
import { categoryRecords, categoryRoutes } from "./categories.js";
import { changelogRoutes } from "./changelogs.js";
import { channelRoutes } from "./channels.js";
import { displayGroupRecords, displayGroupRoutes } from "./display-groups.js";
import { exportRoutes } from "./exports.js";
import { genericEntityRoutes } from "./generic-entities.js";
import { typeValueRecords } from "./type-values.js";

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

/** Every kind's record rules, each a function of the store core and its arguments. */
export const KIND_RECORDS = {
  ...attributeRecords,
  ...typeValueRecords,
  ...attributeSetRecords,
  ...blockRecords,
  ...brandRecords,
  ...assetRecords,
  ...categoryRecords,
  ...displayGroupRecords,
};

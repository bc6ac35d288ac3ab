/**
 * The emulator: a local PIM tenant server implementing API v1 over real HTTP
 * (node:http), several tenants each with its own token, fault knobs, request
 * counters and a loopback-only control surface. Used by the demo, the tests
 * and the benchmarks; see README.md beside this file. This file is the
 * `pimctl/emulator` entry: the server (server.ts), its types, the store and
 * every kind's rules, plain functions of a tenant's store (kinds/<kind>.ts).
 */
export { startEmulator } from "./server.js";
export type { EmulatorSwitches } from "./switches.js";
export { TenantStore } from "./store.js";
export type { Emulator, EmulatorOptions, EmulatorStats, EmulatorTenantSpec, FaultMode, RequestHook, SeedFile, TargetedFault } from "./types.js";
export { HttpError } from "./errors.js";
export { assetsOf, createAsset, deleteAsset, getAsset, setWebId, updateAsset } from "./kinds/assets.js";
export {
  assignToSet,
  attributeSetByName,
  createAttributeSet,
  deleteAttributeSet,
  setAssignments,
  unassignFromSet,
  updateAttributeSet,
} from "./kinds/attribute-sets.js";
export { attributeByName, createAttribute, deleteAttribute, deleteAttributeVersion, setAttributeVersion, updateAttribute } from "./kinds/attributes.js";
export { createBlock, updateBlock } from "./kinds/blocks.js";
export {
  assignBrandAttribute,
  assignBrandSet,
  brandAttributeValues,
  brandByNameLookup,
  createBrand,
  createBrandAttributeValue,
  deleteBrand,
  deleteBrandAttributeValue,
  updateBrand,
  updateBrandAttributeValue,
} from "./kinds/brands.js";
export { createCategory, deleteCategory, updateCategory } from "./kinds/categories.js";
export { createDisplayGroup, updateDisplayGroup } from "./kinds/display-groups.js";
export {
  createTypeValue,
  deleteTypeValue,
  deleteTypeValueVersion,
  getTypeValue,
  setTypeValueVersion,
  typeValuesOf,
  updateTypeValue,
} from "./kinds/type-values.js";

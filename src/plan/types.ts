/**
 * The plan: plain, JSON-serialisable data, published as schemas/plan.schema.json.
 * Renderers and the applier consume it and never recompute it.
 *
 * Meaning of an action, by op:
 * - create: the record does not exist; `changes` hold every managed field (before absent).
 * - update: the record exists; `changes` hold only fields whose value differs.
 * - rename: update whose changes include `name` (or `value`), matched through previous_names.
 * - move:   a category whose parent changes (and maybe its name and fields).
 * - delete: the record exists and is not declared; only with pruning on for its kind.
 * - unsupported: the manifests ask for a change API v1 cannot make (501 or no endpoint);
 *   shown once, never applied, never failing the run.
 * Ordering: `actions` is a topological order of `depends_on` (deletes after
 * everything that stops using the deleted record, children deleted before parents).
 */

import type { PrunePolicy } from "../model/policy.js";

export const PLAN_FORMAT_VERSION = "1.3";

export type Op = "create" | "update" | "rename" | "move" | "delete" | "unsupported";
export const OPS: readonly Op[] = ["create", "update", "rename", "move", "delete", "unsupported"];

/** What an action writes; each maps to exactly one family of API calls in src/apply/. */
export type ResourceType =
  | "display_group"
  | "attribute"
  | "attribute_version"
  | "type_value"
  | "type_value_version"
  | "attribute_set"
  | "attribute_set_attribute"
  | "block"
  | "brand"
  | "brand_version"
  | "brand_asset"
  | "brand_web_id"
  | "brand_attribute_value"
  | "brand_assigned_attribute"
  | "brand_assigned_attribute_set"
  | "category"
  | "category_version"
  | "category_asset"
  | "category_web_id";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface FieldChange {
  field: string;
  /** Absent on create; for an unreadable value, absent with `before_unknown`. */
  before?: Json;
  /** Absent on delete. */
  after?: Json;
  /** The tenant cannot return this value (write-only) and no ledger entry says what it is. */
  before_unknown?: boolean;
  /** Long text: renderers show a unified diff. */
  long_text?: boolean;
}

/**
 * A reference to a record id the applier needs: either known at plan time, or
 * produced by an earlier action of the same plan (a create), by address.
 */
export type Ref = { id: number } | { address: string };

export interface ActionFlags {
  /** Data hangs on the record: products on a brand, values in an attribute, children of a category. */
  destructive?: boolean;
  /** The value cannot be read back; the ledger remembers it once applied. */
  write_only?: boolean;
  /** API v1 cannot do this; shown, never applied. */
  unsupported?: boolean;
  /** A delete the plan was made without permission for (`plan --allow-delete`): apply refuses the whole plan. */
  blocked?: boolean;
}

/**
 * Where a renamed or moved record was before (Terraform's PrevRunAddr): its
 * address in the tenant today, and the manifest field that said so.
 */
export interface PreviousAddress {
  address: string;
  /** What said it is the same record: a manifest field, or the ledger (the record was renamed by hand in the PIM). */
  via: "previous_names" | "previous_values" | "previous_paths" | "ledger";
}

export interface Action {
  /** Human-readable, unique, stable: attribute["Colour"].value["Red"].version["French"]. */
  address: string;
  /** The manifest kind this action belongs to (for grouping and --exclude). */
  kind: import("../model/catalogue.js").Kind;
  type: ResourceType;
  op: Op;
  changes: FieldChange[];
  /** Addresses of actions that must finish first. */
  depends_on: string[];
  flags: ActionFlags;
  /** Rename and move: the record's address before this plan (renderers say "renamed from" / "moved from"). */
  previous?: PreviousAddress;
  /** Why, for people: what a delete takes with it, why API v1 cannot do it, what is unknown. */
  notes?: string[];
  /**
   * Ids and references the applier needs to build the request: `self` is the
   * record's own id (update, delete); other keys name the owner or referenced
   * records (attribute, attribute_set, brand, category, parent, display_group,
   * channel, asset, value). Version actions carry `version_id`.
   */
  refs: Record<string, Ref>;
  version_id?: number;
  /**
   * Values the request needs even when unchanged: an asset's image_url on
   * update, a category's parent for a create, the master value of a version.
   */
  identity?: Record<string, Json>;
  /** Manifest location of the desired record, when there is one. */
  source?: import("../model/catalogue.js").SourceLocation;
}

/** A remote record of a declared kind that the manifests do not declare, with pruning off. */
export interface UnmanagedRecord {
  address: string;
  kind: import("../model/catalogue.js").Kind;
  id: number;
}

export interface PlanSummary {
  create: number;
  update: number;
  rename: number;
  move: number;
  delete: number;
  unsupported: number;
  destructive: number;
  unmanaged: number;
}

export interface Plan {
  format_version: string;
  /** Tenant name from config (never its token). */
  tenant: string;
  /** Version name -> id used for this plan. */
  version_ids: Record<string, number>;
  actions: Action[];
  unmanaged: UnmanagedRecord[];
  /** Warnings for people: things the plan could not know or chose not to do. */
  warnings: string[];
  summary: PlanSummary;
  /**
   * Fingerprints (hash of the normalised remote record) of every record an
   * action touches, so a saved plan can refuse to apply after drift.
   */
  fingerprints: Record<string, string>;
  /**
   * What the plan was made from, so `apply PLAN_FILE` can re-read the same
   * state and check the fingerprints: present in saved plans.
   */
  basis?: PlanBasis;
  /**
   * Whether this plan may delete: decided once, at plan time (`plan --allow-delete`).
   * When false, every delete action is flagged `blocked` and apply refuses the plan
   * before its first write. Absent only in plans of the bare planner (library use).
   */
  deletes_allowed?: boolean;
  /** Deletes that look like the other half of a create (a move or rename without a hint). */
  hints?: MoveHint[];
  /** Saved plans only: a digest of the canonical plan body, and an HMAC when a key is configured. */
  integrity?: PlanIntegrity;
  /** Since 1.3: what the plan does to each language version's translations (src/plan/coverage.ts); absent when nothing. */
  translations?: TranslationCoverage[];
}

/** One language version's coverage change: "German: 14 texts added, 3 now outdated, 2 missing". */
export interface TranslationCoverage {
  version: string;
  /** Texts of the version the plan writes where the tenant has none. */
  added: number;
  /** Translations the plan changes. */
  updated: number;
  /** Master texts the plan changes while the version's translation stays as it was. */
  outdated: number;
  /** Master texts the plan creates or changes that have no translation in the version. */
  missing: number;
}

export interface PlanBasis {
  desired: import("../model/catalogue.js").Catalogue;
  /** The config's prune policy, in every form it accepts (true, false, "owned"). */
  prune: PrunePolicy;
  /** Where the tenant was (never a token), to refuse applying to another tenant. */
  base_url: string;
  /** --target / --exclude the plan was narrowed with: apply re-plans with the same. */
  targets?: string[];
  excludes?: string[];
  /** The plan-time delete permission the actions were computed with. */
  allow_delete?: boolean;
}

/** "This delete and this create look like one record moved or renamed." */
export interface MoveHint {
  /** The delete action's address (the record as the tenant has it). */
  delete: string;
  /** The create action's address (the record as the manifests declare it). */
  create: string;
  /** Why they look alike: same name elsewhere, a near name under the same parent, the same children. */
  reason: string;
  /** The manifest line to add to the created record to keep the tenant's record (and its id). */
  add: string;
}

export interface PlanIntegrity {
  /** "sha256:<hex>" of the canonical JSON of the plan without `integrity`. */
  digest: string;
  /** "hmac-sha256:<hex>" over the same bytes, with the key in PIMCTL_PLAN_HMAC_KEY. */
  hmac?: string;
}

export function hasChanges(plan: Plan): boolean {
  return plan.actions.some((a) => a.op !== "unsupported");
}

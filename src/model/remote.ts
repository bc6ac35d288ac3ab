/**
 * A tenant's state, read by src/state/ into the catalogue's shape plus the ids
 * and read-only facts the planner needs (who holds data, what cannot be read).
 * Nothing here knows about API envelopes: src/state/ normalises those away.
 */
import type { Attribute, AttributeSet, Block, Brand, Category, ChannelName, DisplayGroup, Kind, TypeValue, VersionName } from "./catalogue.js";

export interface Channel {
  id: number;
  channel_name: ChannelName;
  version_id: number;
  version_name: string;
}

export interface RemoteDisplayGroup extends DisplayGroup {
  id: number;
}

export interface RemoteTypeValue extends TypeValue {
  id: number;
}

export interface RemoteAttribute extends Omit<Attribute, "values"> {
  id: number;
  values: RemoteTypeValue[];
}

export interface RemoteAttributeSet extends AttributeSet {
  id: number;
  attributes: string[];
  /** Attribute name -> id of the assignment row (what DELETE .../attributes/<ID> takes). */
  assignment_ids: Record<string, number>;
}

export interface RemoteBlock extends Block {
  id: number;
  /** Block assets are read-only in API v1; kept for export and to explain plans. */
  asset_count: number;
}

/** An asset as the tenant returns it: `uri` is what it stored, `image_url` is not readable. */
export interface RemoteAsset {
  id: number;
  uri: string;
  alttext?: string;
  thumbnail?: boolean;
}

export interface RemoteBrandAttribute {
  attribute_id: number;
  /** Version name ("" is master) -> the value record. */
  values: Record<VersionName | "", { id: number; value: string }>;
}

export interface RemoteBrand extends Omit<Brand, "assets" | "attributes" | "web_ids"> {
  id: number;
  product_count: number;
  /** undefined when not read (the manifests declare no assets for it). */
  assets?: RemoteAsset[];
  attributes?: Record<string, RemoteBrandAttribute>;
}

export interface RemoteCategory extends Omit<Category, "assets" | "web_ids"> {
  id: number;
  parent_id: number | null;
  child_count: number;
  assets?: RemoteAsset[];
}

export interface RemoteCatalogue {
  /** Which kinds were read; planning a kind that was not read is a bug. */
  read: Kind[];
  channels: Channel[];
  /** Version name -> version id, from config mapping and channels. */
  version_ids: Record<VersionName, number>;
  display_groups: RemoteDisplayGroup[];
  attributes: RemoteAttribute[];
  attribute_sets: RemoteAttributeSet[];
  blocks: RemoteBlock[];
  brands: RemoteBrand[];
  categories: RemoteCategory[];
  /**
   * Why a kind's list cannot be trusted to be complete (it kept changing under
   * three reads): a record missing from it may exist, so no delete of that kind
   * may be planned. Absent when every list read was consistent.
   */
  read_doubts?: Partial<Record<"brands" | "categories", string>>;
  /**
   * Categories whose parent is in no read and answers 404 (deleted by someone
   * else during the read): their place in the tree is unknown, so they and their
   * subtrees are left out of `categories`, and nothing in them is deleted.
   */
  orphan_categories?: Array<{ id: number; name: string; parent_id: number; reason: string }>;
}

/** A tenant with nothing in it, for the planner's callers that build a state by hand (benchmarks, tests). */
export function emptyRemote(): RemoteCatalogue {
  return { read: [], channels: [], version_ids: {}, display_groups: [], attributes: [], attribute_sets: [], blocks: [], brands: [], categories: [] };
}

/** The changelog feed's records and reads (API v1: Changelogs), apart from types.ts to keep it small; types.ts re-exports them. */

export interface ApiChangelog {
  id: number;
  updated_at: string;
  entity_id: number;
  entity_type: "product" | "brand" | "category" | "product_asset" | "attribute" | "attribute_set";
  change_type: "full" | "delete" | "reset";
}

export interface ChangelogQuery {
  /** Default: the largest the tenant takes (the client's changelogLimit). */
  limit?: number;
  entityType?: ApiChangelog["entity_type"];
  updatedAt?: string;
}

/** A read of the changelog list: its entries as listed, and what its pages said about themselves. */
export interface ChangelogRead {
  entries: ApiChangelog[];
  /** `meta.total` of each page read, in order (undefined where a page had none): every entry the query matches, by the service's count. */
  totals: Array<number | undefined>;
  /** The `limit` sent for the last page, after any step-down on 422. */
  limit: number;
  /** The answers described their paging (a `links` object or `meta`); false for a bare list. */
  paged: boolean;
  /** Pages were left unread (`firstPage`). */
  more: boolean;
  /** Requests sent, a refused page size's included. */
  requests: number;
}

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
  /** `meta.total` of the first page, when the service sends meta: every entry the query matches. */
  total?: number;
  /** Pages were left unread (`firstPage`). */
  more: boolean;
  /** The last page may have been cut: as long as the default page, no next link, no meta saying it is the last. */
  cut: boolean;
  /** Requests sent, a refused page size's included. */
  requests: number;
}

/**
 * The one table: every switch of the emulator (src/emulator/switches.ts) has its detector here,
 * with what pimctl does under each of its readings. The type makes a switch without a detector a
 * compile error, and test/doctor/matrix.test.ts a failing test (it runs every reading of the
 * switches table through doctor against an emulator started with it).
 */
import type { EmulatorSwitches } from "../emulator/switches.js";
import type { DoctorContext } from "./context.js";
import type { Reading, SwitchName, Verdict } from "./types.js";
import { detectBoolFormat, detectDateFormat, detectIdFormat } from "./readings/wire.js";
import { detectChangelogPaging, detectMaxPageSize, detectPaginateAllLists } from "./readings/paging.js";
import { detectSearchCase, detectSearchEmpty } from "./readings/search.js";
import { detectCategoryAttributeSetsRead, detectVersionFallback } from "./readings/records.js";
import {
  detectAssetUri,
  detectCategoryDeleteWithChildren,
  detectChangelogSubtreeDeletes,
  detectIdSequence,
  detectSetAttributeDeleteId,
} from "./readings/writes.js";
import { detectExportDownload } from "./readings/export-download.js";
import { detectChangelogTotal } from "./readings/changelog-total.js";
import { detectOversizedLimit } from "./readings/oversized-limit.js";
import { MAX_PAGE_LIMIT_CLAMP } from "./vocabulary.js";

export interface Detector<K extends SwitchName> {
  /** read: the answers to reads decide it; write: only --write-probes can. */
  needs: "read" | "write";
  detect(ctx: DoctorContext): Promise<Verdict<Reading<K>>>;
  /** What pimctl does under the reading: the third thing the report says of it. */
  means(reading: Reading<K>): string;
  /**
   * Other switches a reading needs to be seen at all (a subtree's changelog needs a delete that takes the subtree;
   * meta.total needs a feed that has meta): a tenant reading them so shows it.
   */
  observableWith?(reading: Reading<K>): Partial<EmulatorSwitches>;
  /** Whether the reading shows beside a tenant's other readings, where more than observableWith's values do (default: exactly those). */
  observableUnder?(reading: Reading<K>, others: Partial<EmulatorSwitches>): boolean;
  /** Readings to try where the switches table lists none (maxPageSize: a number). */
  samples?: ReadonlyArray<Reading<K>>;
}

const DATE_FORMS = {
  document: "as ISO 8601 with Z, no milliseconds",
  "iso-z": "with milliseconds",
  "iso-offset": "with +00:00",
  sql: "in SQL form (read as UTC)",
};

/** What the changelog refresh does when the feed cannot prove a read of it whole (src/state/changelog/proof.ts). */
const READS_IN_FULL = "reads in full and says why in one line (plans read in full, as always)";
const PARTIAL_CHANGELOG = `no read of it can be proven whole (no links, no meta.total), so --refresh=changelog ${READS_IN_FULL} and keeps no snapshot`;

export const DETECTORS: { readonly [K in SwitchName]: Detector<K> } = {
  categoryAttributeSetsRead: {
    needs: "read",
    detect: detectCategoryAttributeSetsRead,
    means: (r) =>
      ({ objects: "pimctl reads the ids out of the objects", ids: "pimctl reads the ids as they come", csv: "pimctl splits the text into ids" })[r] +
      "; it writes ids, as API v1 says (src/api/wire.ts)",
  },
  assetUri: {
    needs: "write",
    detect: detectAssetUri,
    means: (r) =>
      (r === "rehost" ? "an asset's uri is the tenant's own copy, never the image_url written" : "an asset's uri is the image_url written") +
      ": pimctl compares the image_url it wrote (the ledger), never uri, so plans converge either way",
  },
  searchCase: {
    needs: "read",
    detect: detectSearchCase,
    means: (r) =>
      r === "sensitive"
        ? "a search finds a name only as written: after a lost create, pimctl adopts the record it finds"
        : "a search also finds a name in another case: pimctl takes a hit only when its name is identical, else looks in the full list " +
          "(a name differing only in case is another record to pimctl; a tenant that refuses it as taken answers the create 422)",
  },
  versionFallback: {
    needs: "read",
    detect: detectVersionFallback,
    means: (r) =>
      r
        ? "a language version without a translation reads as the master text: pimctl counts a text equal to the master's as not translated yet"
        : "a language version without a translation reads as null: pimctl counts it as missing",
  },
  categoryDeleteWithChildren: {
    needs: "write",
    detect: detectCategoryDeleteWithChildren,
    means: (r) =>
      (r === "refuse" ? "a category with children cannot be deleted (422)" : "deleting a category deletes its subtree") +
      ": pimctl deletes children before parents and never plans the delete of a category whose children stay, so both end the same",
  },
  changelogSubtreeDeletes: {
    needs: "write",
    detect: detectChangelogSubtreeDeletes,
    observableWith: () => ({ categoryDeleteWithChildren: "cascade" }),
    means: (r) =>
      (r === "each" ? "a subtree delete logs every category" : "a subtree delete logs only the category named in the DELETE") +
      ": --refresh=changelog re-reads everything below a deleted category, so it sees the subtree go either way",
  },
  changelogPaging: {
    needs: "read",
    detect: detectChangelogPaging,
    means: (r) =>
      r === "links"
        ? "the feed says when more entries follow: pimctl follows links.next (same origin only); whether a read is whole rests on meta.total (changelogTotal)"
        : `the feed never says more entries follow: ${PARTIAL_CHANGELOG}`,
  },
  changelogTotal: {
    needs: "read",
    detect: detectChangelogTotal,
    observableWith: () => ({ changelogPaging: "links" }),
    means: (r) =>
      ({
        matching:
          "meta.total counts the entries a query matches: a read whose entries add up to it is whole, so --refresh=changelog uses the feed " +
          "at any page size and counts a crowded second with it instead of reading it again",
        absent:
          "the feed gives no meta.total: --refresh=changelog uses it only while a read of it fits one page holding fewer entries than the " +
          "limit sent (the changes since the snapshot; the last minutes' entries where a snapshot starts); on several pages, or one full page, " +
          `it ${READS_IN_FULL}`,
        tenant:
          "meta.total counts every entry of the tenant's feed, whatever the query: a read of the changes since a snapshot lists fewer " +
          `(only a read reaching back to the feed's first entry agrees), so --refresh=changelog ${READS_IN_FULL}`,
        lagging:
          "meta.total is one short of the entries a query lists (a write behind): every read that lists an entry disagrees with it, so " +
          `--refresh=changelog ${READS_IN_FULL} and never starts a snapshot from such a read`,
      })[r],
  },
  boolFormat: {
    needs: "read",
    detect: detectBoolFormat,
    means: (r) =>
      `booleans come ${{ document: "as the document shows them (1/0 where it says so)", int: "as 1/0", string: 'as "1"/"0"', bool: "as true/false" }[r]}: ` +
      "pimctl reads each form as a boolean (src/api/wire.ts)",
  },
  idFormat: {
    needs: "read",
    detect: detectIdFormat,
    means: (r) =>
      r === "number" ? "ids come as numbers: pimctl reads them as they come" : "ids come as numeric strings: pimctl reads them as integers (src/api/wire.ts)",
  },
  idSequence: {
    needs: "write",
    detect: detectIdSequence,
    means: (r) =>
      r === "per-table"
        ? "each table numbers its own ids, so an assignment's id can be another attribute's: pimctl removes set members with an id that is harmless " +
          "under either reading of the DELETE"
        : "one sequence numbers every table: ids never repeat across kinds (pimctl keys everything by kind and id either way)",
  },
  setAttributeDeleteId: {
    needs: "write",
    detect: detectSetAttributeDeleteId,
    means: (r) =>
      `DELETE /attribute_sets/<S>/attributes/<ID> takes the ${r === "assignment" ? "assignment row's" : "attribute's"} id: pimctl learns this from ` +
      "its first such delete in a run (an id harmless under either reading) and sends that id from then on",
  },
  searchEmpty: {
    needs: "read",
    detect: detectSearchEmpty,
    means: (r) =>
      `a search with no match answers ${{ "empty-body": "200 with an empty body", "404": "404", "empty-array": "200 []", null: "200 null" }[r]}: ` +
      "pimctl reads it as nothing found",
  },
  maxPageSize: {
    needs: "read",
    detect: detectMaxPageSize,
    samples: [undefined, 20, 333],
    means: (r) =>
      r === undefined
        ? `a larger limit is clamped to ${MAX_PAGE_LIMIT_CLAMP}: pimctl asks for ${MAX_PAGE_LIMIT_CLAMP} a page and follows meta.last_page`
        : `lists take at most ${r} records a page (a larger limit refused or cut: oversizedLimit says which): pimctl steps down on a 422 ` +
          "(5000, 2500, 1000, 500, 250, 100, 50, 25, 10, 5, 1) and keeps the first size taken for the run, and follows meta.last_page " +
          "whatever size comes back, so reads of large lists cost more requests",
  },
  oversizedLimit: {
    needs: "read",
    detect: detectOversizedLimit,
    observableWith: () => ({ maxPageSize: 100 }),
    // Under the clamp at 1000 (maxPageSize's default) both answer alike; a refusal shows at any maximum, a cut only below 1000.
    observableUnder: (r, others) => others.maxPageSize !== undefined && (r === "refuse" || others.maxPageSize < MAX_PAGE_LIMIT_CLAMP),
    means: (r) =>
      r === "refuse"
        ? "a limit above the largest page is refused (422), never cut without a word: pimctl steps down on the 422 and keeps the size taken for the run"
        : "a limit above the largest page is cut to it without a word: pimctl never takes a short answer for a list's end (it follows " +
          "meta.last_page and checks meta.total), and --refresh=changelog takes a read of the feed as whole only by meta.total, never by " +
          "fewer entries than the limit sent",
  },
  paginateAllLists: {
    needs: "read",
    detect: detectPaginateAllLists,
    means: (r) =>
      r
        ? "lists API v1 shows unpaged come in pages: pimctl follows their links (or meta), dedupes by id, and refuses a list shorter than meta.total"
        : "lists API v1 shows unpaged come whole: pimctl reads each in one request",
  },
  dateFormat: {
    needs: "read",
    detect: detectDateFormat,
    means: (r) => `dates come ${DATE_FORMS[r]}: ` + "pimctl compares instants, never the text",
  },
  exportDownload: {
    needs: "write",
    detect: detectExportDownload,
    means: (r) =>
      r === "direct"
        ? "the export file is on the tenant's address: pimctl downloads it with the token (apply --backup-profile)"
        : "file_url redirects to another host: pimctl follows it without the token (only over https, or to loopback)",
  },
};

/**
 * Assets are sub-resources of brands and categories (their endpoints are in brands.ts and
 * categories.ts); what both share is how a create whose answer was lost is adopted.
 */
import { PimctlError } from "../../errors.js";
import type * as T from "../types.js";

/**
 * After an ambiguous failure of an asset create: the owner's only asset with this alt text
 * is the one the lost attempt made (the planner adopts the same way). Two or more with
 * that alt text: not adopted, not retried (the failure is reported).
 */
export async function adoptAsset(list: () => Promise<T.ApiAsset[]>, body: T.AssetWrite): Promise<T.ApiAsset | undefined> {
  const same = (await list()).filter((a) => (a.alttext ?? "") === (body.alttext ?? ""));
  if (same.length === 1) return same[0];
  if (same.length > 1)
    throw new PimctlError(
      "apply_failed",
      `the asset create's answer was lost and ${same.length} assets carry the alt text "${body.alttext ?? ""}": not retried, so as not to ` +
        `duplicate it; the next plan adopts or creates it`,
    );
  return undefined;
}

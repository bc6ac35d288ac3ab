/** Move hints: filled in by a later commit. */
import type { Catalogue } from "../model/catalogue.js";
import type { RemoteCatalogue } from "../model/remote.js";
import type { MoveHint, Plan } from "./types.js";

export function moveHints(_plan: Plan, _desired: Catalogue, _remote: RemoteCatalogue): MoveHint[] {
  return [];
}

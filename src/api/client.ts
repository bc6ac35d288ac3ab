/**
 * The API v1 client: the only code that knows paths, envelope keys and status codes.
 * `PimClient` is the request core (core.ts, lists.ts) with every kind's endpoints
 * (kinds/<kind>.ts) on it: the one `PimApi` the state reader and the applier see.
 */
import { ApiCore } from "./core.js";
import type * as T from "./types.js";
import type { ClientOptions } from "./options.js";
import { attributeEndpoints } from "./kinds/attributes.js";
import { attributeSetEndpoints } from "./kinds/attribute-sets.js";
import { blockEndpoints } from "./kinds/blocks.js";
import { brandEndpoints } from "./kinds/brands.js";
import { categoryEndpoints } from "./kinds/categories.js";
import { changelogEndpoints } from "./kinds/changelogs.js";
import { channelEndpoints } from "./kinds/channels.js";
import { displayGroupEndpoints } from "./kinds/display-groups.js";
import { exportEndpoints } from "./kinds/exports.js";
import { genericEntityEndpoints } from "./kinds/generic-entities.js";

export { Semaphore } from "./semaphore.js";
export { backoffMs, parseRetryAfter } from "./retry.js";
export { buildBaseUrl, resolveToken, type ClientOptions } from "./options.js";
export { routeOf } from "./attempt.js";

const endpoints = {
  ...attributeEndpoints,
  ...attributeSetEndpoints,
  ...blockEndpoints,
  ...brandEndpoints,
  ...categoryEndpoints,
  ...changelogEndpoints,
  ...channelEndpoints,
  ...displayGroupEndpoints,
  ...exportEndpoints,
  ...genericEntityEndpoints,
};

// The endpoint methods are the kinds' objects, put on the prototype: each runs with the
// client as `this` (their `this: ApiSelf`), so a kind reaches the core and the other kinds.
type Endpoints = typeof endpoints;
export interface PimClient extends ApiCore, Endpoints {}
export class PimClient extends ApiCore implements T.PimApi {}
// As a class's own methods are: not enumerable, replaceable.
for (const [name, method] of Object.entries(endpoints)) Object.defineProperty(PimClient.prototype, name, { value: method, writable: true, configurable: true });

export function createClient(opts: ClientOptions): PimClient {
  return new PimClient(opts);
}

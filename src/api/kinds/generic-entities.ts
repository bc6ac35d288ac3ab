/** Generic entities (API v1: Generic entities): read only, paged. */
import { all, page as onePage } from "../lists.js";
import type { ApiSelf } from "../core.js";
import type * as T from "../types.js";

export const genericEntityEndpoints = {
  listGenericEntities(this: ApiSelf): Promise<T.ApiGenericEntity[]> {
    return all(this, "/generic-entities", "generic_entities", {});
  },
  listGenericEntitiesPage(this: ApiSelf, page: number): Promise<T.Page<T.ApiGenericEntity>> {
    return onePage(this, "/generic-entities", "generic_entities", { page });
  },
  getGenericEntity(this: ApiSelf, id: number): Promise<T.ApiGenericEntity> {
    return this.get(`/generic-entities/${id}`, "generic_entity");
  },
};

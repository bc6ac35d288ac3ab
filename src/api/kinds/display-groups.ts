/** Display groups (API v1: Display groups); adopted by name. */
import { getList } from "../lists.js";
import type { ApiSelf } from "../core.js";
import type * as T from "../types.js";

export const displayGroupEndpoints = {
  listDisplayGroups(this: ApiSelf): Promise<T.ApiDisplayGroup[]> {
    return getList(this, "/display-groups", "display_groups");
  },
  getDisplayGroup(this: ApiSelf, id: number): Promise<T.ApiDisplayGroup> {
    return this.get(`/display-groups/${id}`, "display_group");
  },
  createDisplayGroup(this: ApiSelf, body: T.DisplayGroupWrite): Promise<T.ApiDisplayGroup> {
    return this.send("POST", "/display-groups", body, "display_group", {
      adopt: async () => (await this.listDisplayGroups()).find((d) => d.name === body.name),
    });
  },
  updateDisplayGroup(this: ApiSelf, id: number, body: T.DisplayGroupWrite): Promise<T.ApiDisplayGroup> {
    return this.send("PUT", `/display-groups/${id}`, body, "display_group");
  },
};

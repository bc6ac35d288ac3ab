/** Attribute sets and the attributes assigned to them (API v1: Attribute sets). */
import { removeAssignment } from "../set-assignments.js";
import { getList } from "../lists.js";
import type { ApiSelf } from "../core.js";
import type * as T from "../types.js";

export const attributeSetEndpoints = {
  listAttributeSets(this: ApiSelf): Promise<T.ApiAttributeSet[]> {
    return getList(this, "/attribute_sets", "attribute_sets");
  },
  getAttributeSet(this: ApiSelf, id: number): Promise<T.ApiAttributeSet> {
    return this.get(`/attribute_sets/${id}`, "attribute_set");
  },
  createAttributeSet(this: ApiSelf, body: T.AttributeSetWrite): Promise<T.ApiAttributeSet> {
    return this.send("POST", "/attribute_sets", body, "attribute_set", {
      adopt: () =>
        this.adoptByName(
          body.name,
          (n) => this.searchAttributeSet(n),
          () => this.listAttributeSets(),
        ),
    });
  },
  updateAttributeSet(this: ApiSelf, id: number, body: T.AttributeSetWrite): Promise<T.ApiAttributeSet> {
    return this.send("PUT", `/attribute_sets/${id}`, body, "attribute_set");
  },
  deleteAttributeSet(this: ApiSelf, id: number): Promise<void> {
    return this.del(`/attribute_sets/${id}`);
  },
  searchAttributeSet(this: ApiSelf, name: string): Promise<T.ApiAttributeSet | null> {
    return this.search("/attribute_sets/search", name, "attribute_set");
  },
  /** [] on the documented 404 (a set without attributes; the API answers the same for a missing set). */
  async listAttributeSetAttributes(this: ApiSelf, setId: number): Promise<T.ApiAttributeSetAttribute[]> {
    return getList(this, `/attribute_sets/${setId}/attributes`, "attribute_set_attributes", { allow404: true });
  },
  async getAttributeSetAttribute(this: ApiSelf, setId: number, attributeId: number): Promise<T.ApiAttributeSetAttribute | null> {
    const path = `/attribute_sets/${setId}/attributes/${attributeId}`;
    const r = await this.request("GET", path, undefined, { allow404: true });
    if (r.status === 404) return null;
    return this.parse("GET", path, r, "attribute_set_attribute");
  },
  async addAttributeToSet(this: ApiSelf, setId: number, attributeId: number): Promise<void> {
    await this.request(
      "POST",
      `/attribute_sets/${setId}/attributes`,
      { attribute_id: attributeId },
      { adopt: async () => (await this.getAttributeSetAttribute(setId, attributeId)) ?? undefined },
    );
  },
  removeAttributeFromSet(this: ApiSelf, setId: number, target: { assignmentId: number; attributeId: number }): Promise<void> {
    return removeAssignment(this, setId, target);
  },
};

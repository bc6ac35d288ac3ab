/** Attributes and their type values (API v1: Attributes, Attribute type values), versions included. */
import { getList } from "../lists.js";
import type { ApiSelf } from "../core.js";
import type * as T from "../types.js";

export const attributeEndpoints = {
  listAttributes(this: ApiSelf, versionId?: number): Promise<T.ApiAttribute[]> {
    return getList(this, versionId ? `/attributes/version/${versionId}` : "/attributes", "attributes");
  },
  getAttribute(this: ApiSelf, id: number, versionId?: number): Promise<T.ApiAttribute> {
    return this.get(versionId ? `/attributes/${id}/version/${versionId}` : `/attributes/${id}`, "attribute");
  },
  createAttribute(this: ApiSelf, body: T.AttributeWrite): Promise<T.ApiAttribute> {
    return this.send("POST", "/attributes", body, "attribute", {
      adopt: () =>
        this.adoptByName(
          body.name,
          (n) => this.searchAttribute(n),
          () => this.listAttributes(),
        ),
    });
  },
  updateAttribute(this: ApiSelf, id: number, body: T.AttributeWrite): Promise<T.ApiAttribute> {
    return this.send("PUT", `/attributes/${id}`, body, "attribute");
  },
  updateAttributeVersion(this: ApiSelf, id: number, versionId: number, body: T.AttributeVersionWrite): Promise<T.ApiAttribute> {
    return this.send("PUT", `/attributes/${id}/version/${versionId}`, body, "attribute");
  },
  deleteAttribute(this: ApiSelf, id: number): Promise<void> {
    return this.del(`/attributes/${id}`);
  },
  deleteAttributeVersion(this: ApiSelf, id: number, versionId: number): Promise<void> {
    return this.del(`/attributes/${id}/version/${versionId}`);
  },
  searchAttribute(this: ApiSelf, name: string): Promise<T.ApiAttribute | null> {
    return this.search("/attributes/search", name, "attribute");
  },

  listTypeValues(this: ApiSelf, attributeId: number, versionId?: number): Promise<T.ApiTypeValue[]> {
    return getList(
      this,
      versionId ? `/attributes/${attributeId}/type_values/version/${versionId}` : `/attributes/${attributeId}/type_values`,
      "attribute_type_values",
    );
  },
  getTypeValue(this: ApiSelf, attributeId: number, id: number, versionId?: number): Promise<T.ApiTypeValue> {
    return this.get(
      versionId ? `/attributes/${attributeId}/type_values/${id}/version/${versionId}` : `/attributes/${attributeId}/type_values/${id}`,
      "attribute_type_value",
    );
  },
  createTypeValue(this: ApiSelf, attributeId: number, body: T.TypeValueWrite): Promise<T.ApiTypeValue> {
    return this.send("POST", `/attributes/${attributeId}/type_values`, body, "attribute_type_value", {
      adopt: async () =>
        (await this.listTypeValues(attributeId)).find((v) => v.value === body.value && (v.attribute_id === undefined || v.attribute_id === attributeId)),
    });
  },
  updateTypeValue(this: ApiSelf, attributeId: number, id: number, body: T.TypeValueWrite): Promise<T.ApiTypeValue> {
    return this.send("PUT", `/attributes/${attributeId}/type_values/${id}`, body, "attribute_type_value");
  },
  updateTypeValueVersion(this: ApiSelf, attributeId: number, id: number, versionId: number, body: { value: string }): Promise<T.ApiTypeValue> {
    return this.send("PUT", `/attributes/${attributeId}/type_values/${id}/version/${versionId}`, body, "attribute_type_value");
  },
  deleteTypeValue(this: ApiSelf, attributeId: number, id: number): Promise<void> {
    return this.del(`/attributes/${attributeId}/type_values/${id}`);
  },
  deleteTypeValueVersion(this: ApiSelf, attributeId: number, id: number, versionId: number): Promise<void> {
    return this.del(`/attributes/${attributeId}/type_values/${id}/version/${versionId}`);
  },
};

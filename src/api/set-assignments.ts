/**
 * DELETE /attribute_sets/<SET>/attributes/<ID>: API v1 does not say whether ID
 * is the assignment row's id or the attribute's id (the single read next to it
 * takes the attribute id; the assignment record has its own id). With ids from
 * separate sequences the two can collide: the attribute id of one assignment
 * can be the row id of another. So the client sends an id that removes the
 * intended assignment under one reading and nothing (404) under the other, learns
 * the tenant's reading from the answer, and refuses when no such id exists.
 * Assumption: the tenant resolves ID within the set named in the path.
 */
import { PimctlError } from "../errors.js";
import type { ApiAttributeSetAttribute } from "./types.js";

export type SetAttributeDeleteReading = "attribute" | "assignment";

export interface AssignmentRemover {
  setAttributeDeleteId: SetAttributeDeleteReading | undefined;
  readonly tenant: string;
  listAttributeSetAttributes(setId: number): Promise<ApiAttributeSetAttribute[]>;
  deleteAllowing404(path: string): Promise<number>;
  note(line: string): void;
}

export async function removeAssignment(c: AssignmentRemover, setId: number, target: { assignmentId: number; attributeId: number }): Promise<void> {
  const path = (id: number) => `/attribute_sets/${setId}/attributes/${id}`;
  const A = target.attributeId;
  const list = await c.listAttributeSetAttributes(setId);
  const row = list.find((x) => x.attribute_id === A);
  if (!row) return; // already removed (an earlier attempt, or someone else): the goal holds
  const G = row.id;
  const stillThere = async () => (await c.listAttributeSetAttributes(setId)).some((x) => x.attribute_id === A);
  const learn = (reading: SetAttributeDeleteReading) => {
    if (c.setAttributeDeleteId === reading) return;
    c.setAttributeDeleteId = reading;
    c.note(
      `tenant "${c.tenant}": DELETE /attribute_sets/<SET>/attributes/<ID> takes the ${reading === "attribute" ? "attribute id" : "assignment id"} ` +
        `(learned from its answer)`,
    );
  };

  const known = G === A ? "attribute" : c.setAttributeDeleteId;
  if (known) {
    const status = await c.deleteAllowing404(path(known === "attribute" ? A : G));
    if (status === 404 && (await stillThere())) {
      throw new PimctlError(
        "api_protocol",
        `removing attribute ${A} from set ${setId}: the tenant answered 404 for the ${known} id it took before, and the assignment is still there`,
        {
          request: { method: "DELETE", path: path(known === "attribute" ? A : G), tenant: c.tenant, status },
        },
      );
    }
    return;
  }

  // Sending A is harmless under the assignment reading when no row of this set has id A;
  // sending G is harmless under the attribute reading when no attribute G is in this set.
  const attributeIdHarmless = !list.some((x) => x.id === A);
  const assignmentIdHarmless = !list.some((x) => x.attribute_id === G);
  const attempts: Array<[SetAttributeDeleteReading, number]> = [];
  if (attributeIdHarmless) attempts.push(["attribute", A]);
  if (assignmentIdHarmless) attempts.push(["assignment", G]);
  if (!attempts.length) {
    throw new PimctlError(
      "plan_refused",
      `cannot remove attribute ${A} from attribute set ${setId} safely: API v1 does not say whether DELETE /attribute_sets/<SET>/attributes/<ID> ` +
        `takes the attribute id (${A}) or the assignment id (${G}), and in this set each of them names another assignment under the other ` +
        `reading. Nothing was deleted; remove the assignment in the PIM's own interface, or run an apply that removes another assignment first so pimctl ` +
        `learns the tenant's reading`,
      { request: { method: "DELETE", path: path(A), tenant: c.tenant } },
    );
  }
  const [reading, id] = attempts[0]!;
  if ((await c.deleteAllowing404(path(id))) !== 404) {
    learn(reading); // under the other reading this id names nothing in the set, so it would have been 404
    return;
  }
  if (!(await stillThere())) return; // removed meanwhile
  const other: SetAttributeDeleteReading = reading === "attribute" ? "assignment" : "attribute";
  learn(other);
  const status = await c.deleteAllowing404(path(other === "attribute" ? A : G));
  if (status === 404 && (await stillThere())) {
    throw new PimctlError(
      "api_protocol",
      `removing attribute ${A} from set ${setId}: the tenant answered 404 for both the attribute id and the assignment id`,
      {
        request: { method: "DELETE", path: path(G), tenant: c.tenant, status },
      },
    );
  }
}

/**
 * Integrity of saved plans: a digest over the canonical plan body catches
 * accidental edits (a hand-fixed typo, a merge that mangled the file), and an
 * optional HMAC with a key from the environment makes the file a signature for
 * pipelines that want one. Without the HMAC, whoever can write the file can
 * also recompute the digest: the real guarantee is that apply re-plans and
 * refuses unless the recomputed actions are exactly the saved ones.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { PimctlError } from "../errors.js";
import { canonicalJson } from "../plan/canonical-json.js";
import type { Plan, PlanIntegrity } from "../plan/types.js";

/** The environment variable holding the HMAC key for signed plans. */
export const PLAN_HMAC_ENV = "PIMCTL_PLAN_HMAC_KEY";

function body(plan: Plan): string {
  const { integrity: _integrity, ...rest } = plan;
  return canonicalJson(rest);
}

export function planDigest(plan: Plan): string {
  return `sha256:${createHash("sha256").update(body(plan)).digest("hex")}`;
}

/** The HMAC of a saved file's canonical body (a plan's, or a fleet file's wrapper). */
export function hmacOf(text: string, key: string): string {
  return `hmac-sha256:${createHmac("sha256", key).update(text).digest("hex")}`;
}

function planHmac(plan: Plan, key: string): string {
  return hmacOf(body(plan), key);
}

/** The plan with its integrity block: a digest always, an HMAC when a key is given. */
export function sealPlan(plan: Plan, key: string | undefined): Plan {
  const integrity: PlanIntegrity = { digest: planDigest(plan) };
  if (key) integrity.hmac = planHmac(plan, key);
  return { ...plan, integrity };
}

/**
 * Refuse a plan whose digest does not match its body, or whose HMAC does not
 * verify. A configured key makes the HMAC mandatory; a signed plan without a
 * key to check it is refused too (a pipeline that signs expects verification).
 */
export function checkIntegrity(plan: Plan, file: string, key: string | undefined): void {
  if (!plan.integrity) {
    throw new PimctlError("plan_integrity", `${file} has no integrity digest; save plans with 'pimctl plan --out FILE' and apply them unedited`);
  }
  const digest = planDigest(plan);
  if (plan.integrity.digest !== digest) {
    throw new PimctlError(
      "plan_integrity",
      `${file} was edited after it was saved: its digest does not match its content. Make a new plan with 'pimctl plan --out FILE'; never edit a saved plan`,
      {
        details: [`recorded ${plan.integrity.digest}`, `computed ${digest}`],
      },
    );
  }
  checkSignature(file, plan.integrity.hmac, body(plan), key, {
    noun: "plan",
    subject: "the signature",
    remake: "Make the plan with the key set",
    edited: "edited",
  });
}

/** How a signature's refusals name what was signed (a plan, or a fleet file's wrapper). */
export interface SignatureWords {
  /** What the key signed: "plan". */
  noun: string;
  /** "the signature". */
  subject: string;
  /** The remedy for an unsigned file: "Make the plan with the key set". */
  remake: string;
  /** What an edit would have changed: "edited". */
  edited: string;
}

/**
 * A saved file's HMAC over its canonical body. A configured key makes the signature mandatory; a
 * signed file without a key to check it is refused too (a pipeline that signs expects verification).
 */
export function checkSignature(file: string, hmac: string | undefined, signedBody: string, key: string | undefined, words: SignatureWords): void {
  if (!key) {
    if (hmac) {
      throw new PimctlError(
        "plan_integrity",
        `${file} is signed, but ${PLAN_HMAC_ENV} is not set: set it to the key the ${words.noun} was signed with so the signature can be checked`,
      );
    }
    return;
  }
  if (!hmac) throw new PimctlError("plan_integrity", `${file} is not signed, but ${PLAN_HMAC_ENV} is set: only signed plans are applied. ${words.remake}`);
  if (!sameText(hmac, hmacOf(signedBody, key))) {
    throw new PimctlError(
      "plan_integrity",
      `${file}: ${words.subject} does not verify with the key in ${PLAN_HMAC_ENV} (${words.edited}, or signed with another key)`,
    );
  }
}

/** Equal texts, compared in constant time (a signature check must not tell how much of it matched). */
function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

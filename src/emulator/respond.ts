/**
 * Reading requests and writing answers: bodies up to --max-body-bytes, JSON answers,
 * and long lists written a chunk at a time so a small request arriving meanwhile is
 * answered at once (README.md, "Lists longer than 250 records").
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { toWire } from "./wire-format.js";

/** Records produced between two yields to other requests. */
const LIST_CHUNK = 250;

export function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const text = body === undefined ? "" : JSON.stringify(body); // null is sent as "null"
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export async function readBody(req: IncomingMessage, maxBody: number): Promise<Buffer | "too_large"> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBody) return "too_large";
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The key of a list long enough that producing it in one go would hold up every other request. */
export function largeList(body: unknown): string | undefined {
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
  return Object.entries(body).find(([, v]) => Array.isArray(v) && v.length > LIST_CHUNK)?.[0];
}

/**
 * A large list (5 MB of attributes with their type values, a page of 1,000 categories)
 * is converted and written LIST_CHUNK records at a time, yielding between chunks, so a
 * small request arriving meanwhile is answered at once. The JSON is the same.
 */
export async function sendInChunks(
  res: ServerResponse,
  status: number,
  body: Record<string, unknown>,
  listKey: string,
  wire: Parameters<typeof toWire>[1],
): Promise<void> {
  res.writeHead(status, { "content-type": "application/json" });
  const write = async (text: string) => {
    if (res.destroyed) return;
    if (res.write(text)) return;
    // Whichever comes first removes both: a close listener left behind per drain piled up on a
    // large list (Node's MaxListenersExceededWarning after ten, on every 10× attribute list).
    await new Promise<void>((r) => {
      const done = () => {
        res.off("drain", done).off("close", done);
        r();
      };
      res.once("drain", done).once("close", done);
    });
  };
  const keys = Object.keys(body);
  await write("{");
  for (const [k, key] of keys.entries()) {
    await write(`${k ? "," : ""}${JSON.stringify(key)}:`);
    if (key !== listKey) {
      await write(JSON.stringify(toWire(body[key], wire, key)) ?? "null");
      continue;
    }
    const list = body[key] as unknown[];
    await write("[");
    for (let i = 0; i < list.length; i += LIST_CHUNK) {
      if (i) await new Promise((r) => setImmediate(r));
      const part = list.slice(i, i + LIST_CHUNK).map((x) => JSON.stringify(toWire(x, wire)));
      await write(`${i ? "," : ""}${part.join(",")}`);
    }
    await write("]");
  }
  if (!res.destroyed) res.end("}");
}

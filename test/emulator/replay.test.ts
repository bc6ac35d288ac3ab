/**
 * The emulator's conformance, byte for byte: a recorded HTTP exchange (the demo's whole
 * cycle, and the readings matrix's runs without faults) replayed against a fresh emulator
 * must get the same status, the same headers that matter and the same body bytes. It
 * guards refactorings of src/emulator/ (issue 28 split it by kind): nothing changes on the wire.
 *
 * Recording (only when the emulator's answers are meant to change):
 *   RECORD_REPLAY=1 npx vitest run test/emulator/replay.test.ts
 * runs the real clients (the demo through `run(["demo"])`, the matrix's plan/apply rounds)
 * through a recording proxy: HTTP_PROXY points at it, undici tunnels with CONNECT, and the
 * tunnel is handed to a local HTTP server that forwards each request to the emulator one
 * at a time, so the order the emulator saw is the order replayed.
 *
 * Determinism: only `Date` is faked (timers stay real); the clock is set to T0 + n seconds
 * before the n-th request, in the recording and in the replay, so timestamps, export
 * progress and changelog entries are the same bytes. The emulator's address (and the
 * object-storage address of `--export-download redirect`) is written as {{API}} and
 * {{STORAGE}}, and the tenant token as {{TOKEN}} (the demo draws a random one).
 */
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startEmulator, type Emulator, type EmulatorOptions, type EmulatorSwitches } from "../../src/emulator/index.js";
import { createClient } from "../../src/api/client.js";
import { readState } from "../../src/state/index.js";
import { buildPlan } from "../../src/plan/planner.js";
import { applyPlan } from "../../src/apply/index.js";
import { backupExport } from "../../src/apply/backup.js";
import { emptyLedger } from "../../src/state/ledger.js";
import { memoryIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";
import { catalogue, changes, prune, seed } from "../readings/fixture.js";
import { eachReadingAlone, SWITCH_LEVELS, SWITCH_NAMES, switchesOf } from "../helpers/switch-factors.js";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";

const FIXTURE = path.join(import.meta.dirname, "fixtures", "replay.json.gz");
const RECORD = process.env.RECORD_REPLAY === "1";
const T0 = Date.parse("2026-03-01T10:00:00Z");
const DEMO_TOKEN = "replay-token";

/** The response headers a client can tell apart; the rest (date, keep-alive) are node's. */
const HEADERS = ["content-type", "content-length", "transfer-encoding", "location", "retry-after", "allow"] as const;

interface Exchange {
  target: "api" | "storage";
  method: string;
  path: string;
  /** authorization ({{TOKEN}} for the tenant's token) and content-type, when sent. */
  headers: Record<string, string>;
  body: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
}

interface Session {
  name: string;
  /**
   * demo: the tenant `runDemo` starts; matrix: test/readings/fixture.ts's tenant under these
   * switches; probes: a default tenant with 300 brands, under these switches, sent PROBES.
   */
  kind: "demo" | "matrix" | "probes";
  switches?: Partial<EmulatorSwitches>;
  exchanges: Exchange[];
}

/** The readings, as the readings matrix tries them (generated from SWITCHES). */
const names = SWITCH_NAMES;
const levels = SWITCH_LEVELS;

/**
 * The recorded subset of the matrix: the defaults, each reading alone, every switch on its
 * last reading and every switch on its first alternative, without faults (random faults
 * drop connections mid-answer, which a byte replay cannot hold). 30 runs for 18 switches.
 */
function matrixRuns(): Array<{ name: string; switches: Partial<EmulatorSwitches> }> {
  const rows = [names.map(() => 0), ...eachReadingAlone(), names.map((_, i) => levels[i]!.length - 1), names.map(() => 1)];
  return rows.map((row, n) => {
    const switches = switchesOf(row);
    const label =
      names
        .filter((s, i) => row[i] !== 0 && switches[s] !== undefined)
        .map((s) => `${s}=${String(switches[s])}`)
        .join(" ") || "defaults";
    return { name: `matrix #${n} ${n === rows.length - 2 ? "last readings" : n === rows.length - 1 ? "first alternatives" : label}`, switches };
  });
}

/** The probes under the defaults, and under every switch on its last reading (ids and page size aside). */
const PROBE_READINGS: Array<[string, Partial<EmulatorSwitches>]> = [
  ["probes: defaults", {}],
  // Ids per table and no page-size cap, so the probes' ids and pages still find their records.
  [
    "probes: other readings",
    {
      ...Object.fromEntries(names.map((s, i) => [s, levels[i]![levels[i]!.length - 1]])),
      idSequence: "per-table",
      maxPageSize: undefined,
    },
  ],
];

const emulatorOptions = (s: Session): EmulatorOptions =>
  s.kind === "demo"
    ? { port: 0, tenants: [{ hash: "demo", token: DEMO_TOKEN }], latencyMs: 0 }
    : s.kind === "probes"
      ? { port: 0, tenants: [{ hash: "t", token: "tok" }], switches: s.switches ?? {}, exportStepMs: 10 }
      : { port: 0, tenants: [{ hash: "t", token: "tok" }], switches: s.switches ?? {}, exportStepMs: 10, seed: { tenants: { t: seed } } };

/** A fresh emulator for a session, seeded as the recording's was. */
async function emulatorFor(s: Session): Promise<Emulator> {
  const emu = await startEmulator(emulatorOptions(s));
  // More than one chunk of a long list (250 records): the chunked answer is on the wire too.
  if (s.kind === "probes") emu.store("t").seedBrands(300);
  return emu;
}

type Probe = [method: string, path: string, body?: unknown, headers?: Record<string, string>];
const AUTH = { authorization: "Bearer {{TOKEN}}" };
const JSON_BODY = { ...AUTH, "content-type": "application/json" };
/**
 * What the clients above never send: the error answers, the long lists, every kind's
 * reads and writes once, and the control surface. Paths below /api/v1 of tenant "t"
 * unless they start with "/__emulator", "/exports/t" or "/assets/t". A string body is sent as is.
 */
const PROBES: Probe[] = [
  ["GET", "/ping", undefined, AUTH],
  ["GET", "/brands?limit=1000", undefined, AUTH],
  ["GET", "/brands?page=3&limit=100&version=2", undefined, AUTH],
  ["GET", "/brands?limit=abc&page=-1", undefined, AUTH],
  ["GET", "/brands"],
  ["GET", "/brands", undefined, { authorization: "Bearer wrong" }],
  ["GET", "/brands", undefined, { authorization: "Basic {{TOKEN}}" }],
  ["GET", "/nope", undefined, AUTH],
  ["DELETE", "/channels", undefined, AUTH],
  ["POST", "/blocks/1/assets", { image_url: "x" }],
  ["POST", "/brands", "{not json", JSON_BODY],
  ["POST", "/brands", [], JSON_BODY],
  ["POST", "/brands", {}, JSON_BODY],
  ["POST", "/brands", { name: 5 }, JSON_BODY],
  ["POST", "/brands", { name: "Probe", desc: "d", excluded: 1, exclusion_start_date: "2026-01-02T03:04:05Z" }, JSON_BODY],
  ["PUT", "/brands/301", { seo_title: "T", excluded: false }, JSON_BODY],
  ["GET", "/brands/301", undefined, AUTH],
  ["GET", "/brands/301/version/2", undefined, AUTH],
  ["GET", "/brands/99999", undefined, AUTH],
  ["GET", "/brands/abc", undefined, AUTH],
  ["POST", "/brands/search", { name: "Probe" }, JSON_BODY],
  ["POST", "/brands/search", { name: "probe" }, JSON_BODY],
  ["POST", "/brands/search", { name: "Nothing" }, JSON_BODY],
  ["POST", "/brands/301/assets", { image_url: "https://cdn.example.com/a/probe.png?x=1", alttext: "P", thumbnail: true }, JSON_BODY],
  ["PUT", "/brands/301/assets/1", { image_url: "https://cdn.example.com/b.png", thumbnail: 0 }, JSON_BODY],
  ["GET", "/brands/301/assets", undefined, AUTH],
  ["GET", "/brands/301/assets/1", undefined, AUTH],
  ["POST", "/brands/301/channel/1", { web_id: 42 }, JSON_BODY],
  ["POST", "/brands/301/channel/1", "{", JSON_BODY],
  ["POST", "/brands/301/channel/1", { web_id: "" }, JSON_BODY],
  ["DELETE", "/brands/301/assets/1", undefined, AUTH],
  ["GET", "/display-groups", undefined, AUTH],
  ["POST", "/display-groups", { name: "Basics", in_navigation: true }, JSON_BODY],
  ["PUT", "/display-groups/1", { sort_order: 3 }, JSON_BODY],
  ["GET", "/display-groups/1", undefined, AUTH],
  ["POST", "/attributes", { name: "Calc", type: "calculated" }, JSON_BODY],
  ["POST", "/attributes", { name: "Colour", type: "selectbox", display_group_id: 1, publish: true }, JSON_BODY],
  ["PUT", "/attributes/1", { note: "n" }, JSON_BODY],
  ["PUT", "/attributes/1/version/2", { name: "Couleur" }, JSON_BODY],
  ["PUT", "/attributes/1/version/0", { name: "x" }, JSON_BODY],
  ["POST", "/attributes/1/type_values", { value: "Red" }, JSON_BODY],
  ["POST", "/attributes/1/type_values", { value: "Blue", sort_order: 2 }, JSON_BODY],
  ["PUT", "/attributes/1/type_values/1", { slug: "red" }, JSON_BODY],
  ["PUT", "/attributes/1/type_values/1/version/2", { value: "Rouge" }, JSON_BODY],
  ["GET", "/attributes", undefined, AUTH],
  ["GET", "/attributes/version/2", undefined, AUTH],
  ["GET", "/attributes/1", undefined, AUTH],
  ["GET", "/attributes/1/version/3", undefined, AUTH],
  ["GET", "/attributes/1/type_values", undefined, AUTH],
  ["GET", "/attributes/1/type_values/version/2", undefined, AUTH],
  ["GET", "/attributes/1/type_values/2/version/2", undefined, AUTH],
  ["GET", "/attributes/1/type_values/1", undefined, AUTH],
  ["POST", "/attributes/search", { name: "COLOUR" }, JSON_BODY],
  ["POST", "/attribute_sets", { name: "Apparel" }, JSON_BODY],
  ["GET", "/attribute_sets/1/attributes", undefined, AUTH],
  ["POST", "/attribute_sets/1/attributes", { attribute_id: 1 }, JSON_BODY],
  ["GET", "/attribute_sets/1/attributes", undefined, AUTH],
  ["GET", "/attribute_sets/1/attributes/1", undefined, AUTH],
  ["PUT", "/attribute_sets/1", { sort_order: 4 }, JSON_BODY],
  ["GET", "/attribute_sets", undefined, AUTH],
  ["POST", "/attribute_sets/search", { name: "Apparel" }, JSON_BODY],
  ["POST", "/brands/301/attributes", { attribute_id: 1, values: [{ value: "Red" }] }, JSON_BODY],
  ["POST", "/brands/301/attributes", { attribute_id: 1, values: [{ value: "Red" }] }, JSON_BODY],
  ["POST", "/brands/301/attributes", { attribute_id: 1, values: [] }, JSON_BODY],
  ["PUT", "/brands/301/attributes/1/values/1", { attribute_id: 1, values: [{ value: "Blue" }] }, JSON_BODY],
  ["POST", "/brands/301/assigned-attributes", { attribute_id: 1 }, JSON_BODY],
  ["POST", "/brands/301/assigned-attribute-sets", { attribute_set_id: 1 }, JSON_BODY],
  ["GET", "/brands/301/attributes", undefined, AUTH],
  ["GET", "/brands/301/attributes/1", undefined, AUTH],
  ["DELETE", "/brands/301/attributes/1/values/1", undefined, AUTH],
  ["POST", "/categories", { name: "Root" }, JSON_BODY],
  ["POST", "/categories", { name: "Root", parent_id: 0, status: "odd" }, JSON_BODY],
  ["POST", "/categories", { name: "Root", parent_id: 0, attribute_sets: [1], is_visible: 1 }, JSON_BODY],
  ["POST", "/categories", { name: "Child", parent_id: 1, slug: "child" }, JSON_BODY],
  ["POST", "/categories/2/assets", { image_url: "https://cdn.example.com/c.png", thumbnail: true }, JSON_BODY],
  ["POST", "/categories/2/channel/2", { web_id: "child-fr" }, JSON_BODY],
  ["PUT", "/categories/2", { desc: "D", status: "disabled" }, JSON_BODY],
  ["GET", "/categories?withAttributes=true", undefined, AUTH],
  ["GET", "/categories/2?withAttributes=1", undefined, AUTH],
  ["GET", "/categories/2/version/2", undefined, AUTH],
  ["DELETE", "/categories/1", undefined, AUTH],
  ["DELETE", "/attribute_sets/1/attributes/1", undefined, AUTH],
  ["DELETE", "/attribute_sets/1", undefined, AUTH],
  ["POST", "/blocks", { name: "Footer", slug: "footer", content: "x" }, JSON_BODY],
  ["PUT", "/blocks/1", { content: "y" }, JSON_BODY],
  ["GET", "/blocks", undefined, AUTH],
  ["GET", "/blocks/1", undefined, AUTH],
  ["GET", "/blocks/1/assets", undefined, AUTH],
  ["GET", "/blocks/1/assets/1", undefined, AUTH],
  ["DELETE", "/blocks/1", undefined, AUTH],
  ["GET", "/channels", undefined, AUTH],
  ["GET", "/channels/2", undefined, AUTH],
  ["GET", "/channels/99", undefined, AUTH],
  ["GET", "/generic-entities?limit=1", undefined, AUTH],
  ["GET", "/generic-entities/1", undefined, AUTH],
  ["GET", "/generic-entities/99", undefined, AUTH],
  ["DELETE", "/attributes/1/type_values/2/version/2", undefined, AUTH],
  ["DELETE", "/attributes/1/type_values/2", undefined, AUTH],
  ["DELETE", "/attributes/1/version/2", undefined, AUTH],
  ["DELETE", "/attributes/1", undefined, AUTH],
  ["DELETE", "/brands/301", undefined, AUTH],
  ["DELETE", "/categories/2", undefined, AUTH],
  ["GET", "/changelogs?limit=5&page=2", undefined, AUTH],
  ["GET", "/changelogs?entity_type=category&updated_at=2026-03-01%2010:00:30", undefined, AUTH],
  ["GET", "/changelogs?updated_at=yesterday", undefined, AUTH],
  ["GET", "/changelogs/1", undefined, AUTH],
  ["GET", "/changelogs/99999", undefined, AUTH],
  ["POST", "/exports", {}, JSON_BODY],
  ["POST", "/exports", { profile_id: 9 }, JSON_BODY],
  ["POST", "/exports", { profile_id: 1 }, JSON_BODY],
  ["GET", "/exports/1", undefined, AUTH],
  ["GET", "/exports/t/1/export-1.json"],
  ["GET", "/exports/t/1/export-1.json", undefined, AUTH],
  ["GET", "/assets/t/brand/1/probe.png"],
  ["GET", "/__emulator/nothing"],
  ["POST", "/__emulator/faults", '{"latencyMs":0}', { "content-type": "text/plain" }],
  ["POST", "/__emulator/reset", undefined, { origin: "https://evil.example" }],
  ["POST", "/__emulator/tenants/t/rotate-token", {}, { "content-type": "application/json" }],
  ["POST", "/__emulator/tenants/x/rotate-token", { token: "n" }, { "content-type": "application/json" }],
  ["GET", "/__emulator/stats"],
  ["POST", "/__emulator/reset", { data: true }, { "content-type": "application/json" }],
  ["GET", "/brands?limit=2", undefined, AUTH],
];

/** Sends PROBES to a fresh emulator, as recorded exchanges. */
async function recordProbes(name: string, switches: Partial<EmulatorSwitches>): Promise<Session> {
  const session: Session = { name, kind: "probes", switches, exchanges: [] };
  const emu = await emulatorFor(session);
  const api = new URL(emu.url).host;
  let storage = "{{STORAGE}}";
  try {
    for (const [i, [method, p, body, headers = {}]] of PROBES.entries()) {
      vi.setSystemTime(T0 + (i + 1) * 1000);
      const full = /^\/(__emulator|exports\/t|assets\/t)\//.test(p) ? p : `/t/api/v1${p}`;
      const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
      const sent = {
        host: api,
        ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace("{{TOKEN}}", "tok")])),
        ...(text ? { "content-length": String(Buffer.byteLength(text)) } : {}),
      };
      const r = await send(api, method, full, sent, Buffer.from(text, "utf8"));
      const location = r.headers.location ? new URL(r.headers.location).host : undefined;
      if (location && location !== api) storage = location;
      const norm = (t: string) => t.split(api).join("{{API}}").split(storage).join("{{STORAGE}}");
      session.exchanges.push({
        target: "api",
        method,
        path: full,
        headers,
        body: text,
        status: r.status,
        responseHeaders: Object.fromEntries(Object.entries(pickHeaders(r.headers)).map(([k, v]) => [k, norm(v)])),
        responseBody: norm(r.body.toString("utf8")),
      });
    }
  } finally {
    await emu.close();
  }
  return session;
}

const collect = async (s: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

function pickHeaders(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of HEADERS) if (h[k] !== undefined) out[k] = String(h[k]);
  return out;
}

/** One request to host:port, the whole answer read. */
function send(
  authority: string,
  method: string,
  p: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  const [host, port] = authority.split(":");
  return new Promise((resolve, reject) => {
    const req = request({ host, port: Number(port), method, path: p, headers, agent: false }, (res) => {
      collect(res).then((b) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: b }), reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The recording proxy (see the header): every exchange, in the order the emulator answered them. */
async function recorder(): Promise<{ proxyUrl: string; exchanges: Exchange[]; close(): Promise<void> }> {
  const authorities: string[] = []; // [0] the emulator, [1] object storage
  const exchanges: Exchange[] = [];
  let queue: Promise<void> = Promise.resolve();
  let n = 0;
  const normalise = (text: string) => authorities.reduce((t, a, i) => t.split(a).join(i === 0 ? "{{API}}" : "{{STORAGE}}"), text);
  const inner = createServer((req, res) => {
    const target = (req.socket as Socket & { target: string }).target;
    void collect(req).then((body) => {
      queue = queue.then(async () => {
        vi.setSystemTime(T0 + ++n * 1000);
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && !["connection", "keep-alive"].includes(k)) headers[k] = v;
        const r = await send(target, req.method!, req.url!, headers, body);
        // The object-storage address is first seen in the redirect that names it.
        const location = r.headers.location ? new URL(r.headers.location).host : undefined;
        if (location && !authorities.includes(location)) authorities.push(location);
        const sent: Record<string, string> = {};
        if (req.headers.authorization) sent.authorization = req.headers.authorization.startsWith("Bearer ") ? "Bearer {{TOKEN}}" : req.headers.authorization;
        if (req.headers["content-type"]) sent["content-type"] = req.headers["content-type"];
        exchanges.push({
          target: authorities.indexOf(target) === 0 ? "api" : "storage",
          method: req.method!,
          path: normalise(req.url!),
          headers: sent,
          body: normalise(body.toString("utf8")),
          status: r.status,
          responseHeaders: Object.fromEntries(Object.entries(pickHeaders(r.headers)).map(([k, v]) => [k, normalise(v)])),
          responseBody: normalise(r.body.toString("utf8")),
        });
        const back: Record<string, string> = {};
        for (const [k, v] of Object.entries(r.headers))
          if (typeof v === "string" && !["transfer-encoding", "connection", "keep-alive", "content-length"].includes(k)) back[k] = v;
        res.writeHead(r.status, { ...back, "content-length": r.body.length });
        res.end(r.body);
      });
    });
  });
  const outer = createServer();
  outer.on("connect", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const target = req.url!;
    if (!authorities.includes(target)) authorities.push(target);
    (socket as Socket & { target: string }).target = target;
    socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length) socket.unshift(head);
    inner.emit("connection", socket);
  });
  await new Promise<void>((r) => outer.listen(0, "127.0.0.1", () => r()));
  const port = (outer.address() as { port: number }).port;
  return {
    proxyUrl: `http://127.0.0.1:${port}`,
    exchanges,
    close: async () => {
      await queue;
      outer.closeAllConnections();
      inner.closeAllConnections();
      await new Promise<void>((r) => outer.close(() => r()));
    },
  };
}

async function recordDemo(): Promise<Session> {
  const rec = await recorder();
  const io = memoryIo({ cwd: process.cwd(), env: { HTTP_PROXY: rec.proxyUrl } });
  const code = await run(["demo"], io);
  await rec.close();
  expect(code, io.err.join("")).toBe(0);
  return { name: "demo", kind: "demo", exchanges: rec.exchanges };
}

/** One run of the readings matrix (test/readings/matrix.test.ts without faults), through the recorder. */
async function recordMatrixRun(name: string, switches: Partial<EmulatorSwitches>): Promise<Session> {
  const session: Session = { name, kind: "matrix", switches, exchanges: [] };
  const emu = await emulatorFor(session);
  const rec = await recorder();
  const api = createClient({
    tenant: "t",
    baseUrl: emu.tenantUrl("t"),
    token: "tok",
    parallelism: 4,
    retries: { max: 8, baseMs: 1, maxMs: 10 },
    timeoutMs: 5_000,
    env: { HTTP_PROXY: rec.proxyUrl },
  });
  const ledger = emptyLedger("t", emu.tenantUrl("t"));
  const plan = async () => {
    const remote = await readState(api, { kinds: catalogue.managed, desired: catalogue, prune });
    return buildPlan({ tenant: "t", desired: catalogue, remote, ledger, prune }).plan;
  };
  const dir = await mkdtemp(path.join(tmpdir(), "pimctl-replay-"));
  try {
    await backupExport({ api, profileId: 1, outFile: path.join(dir, "backup.json"), pollMs: 5 });
    let rounds = 0;
    for (let p = await plan(); changes(p).length && rounds < 3; p = await plan(), rounds++) {
      await applyPlan({ api, plan: p, allowDelete: true, dryRun: false, parallelism: 4, failFast: false, ledger });
    }
  } finally {
    await api.close();
    await rec.close();
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  }
  session.exchanges = rec.exchanges;
  return session;
}

/** Replays a session against a fresh emulator; the first exchange that differs fails the test. */
async function replay(session: Session): Promise<void> {
  vi.setSystemTime(T0);
  const emu = await emulatorFor(session);
  const token = session.kind === "demo" ? DEMO_TOKEN : "tok";
  const api = new URL(emu.url).host;
  let storage = "{{STORAGE}}";
  const fill = (text: string) => text.split("{{API}}").join(api).split("{{STORAGE}}").join(storage);
  try {
    for (const [i, x] of session.exchanges.entries()) {
      vi.setSystemTime(T0 + (i + 1) * 1000);
      const authority = x.target === "api" ? api : storage;
      const headers: Record<string, string> = { host: authority };
      for (const [k, v] of Object.entries(x.headers)) headers[k] = v.replace("{{TOKEN}}", k === "authorization" ? token : "{{TOKEN}}");
      const body = Buffer.from(fill(x.body), "utf8");
      if (body.length) headers["content-length"] = String(body.length);
      const r = await send(authority, x.method, fill(x.path), headers, body);
      const location = r.headers.location;
      if (location && !location.includes(api)) storage = new URL(location).host;
      const where = `${session.name}: exchange ${i + 1} of ${session.exchanges.length}, ${x.method} ${x.path}`;
      expect(r.status, where).toBe(x.status);
      expect(pickHeaders(r.headers), where).toEqual(Object.fromEntries(Object.entries(x.responseHeaders).map(([k, v]) => [k, fill(v)])));
      expect(r.body.toString("utf8"), where).toBe(fill(x.responseBody));
      expect(r.body.equals(Buffer.from(fill(x.responseBody), "utf8")), where).toBe(true);
    }
  } finally {
    await emu.close();
  }
}

const loadFixture = (): Session[] => (existsSync(FIXTURE) ? (JSON.parse(gunzipSync(readFileSync(FIXTURE)).toString("utf8")) as Session[]) : []);

describe("the emulator answers the recorded exchanges with the same bytes", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  if (RECORD) {
    it("records the demo and the matrix subset", { timeout: 300_000 }, async () => {
      const sessions = [await recordDemo()];
      for (const r of matrixRuns()) {
        vi.setSystemTime(T0);
        sessions.push(await recordMatrixRun(r.name, r.switches));
      }
      for (const [name, switches] of PROBE_READINGS) {
        vi.setSystemTime(T0);
        sessions.push(await recordProbes(name, switches));
      }
      writeFileSync(FIXTURE, gzipSync(JSON.stringify(sessions), { level: 9 }));
    });
    return;
  }

  const sessions = loadFixture();
  it("has a fixture holding the demo and every matrix run", () => {
    expect(sessions.map((s) => s.name)).toEqual(["demo", ...matrixRuns().map((r) => r.name), ...PROBE_READINGS.map(([n]) => n)]);
    for (const s of sessions) expect(s.exchanges.length, s.name).toBeGreaterThan(10);
  });
  for (const s of sessions) {
    it(`${s.name} (${s.exchanges.length} exchanges)`, { timeout: 60_000 }, async () => {
      await replay(s);
    });
  }
});

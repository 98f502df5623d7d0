import { afterAll, afterEach, expect, test } from "bun:test";
import { createServer, type Server, type Socket } from "node:net";
import postgres from "postgres";

/**
 * postgres.js as patched (patches/postgres+3.4.9.patch), driven against a scripted server on
 * 127.0.0.1 that speaks just enough of the wire protocol: startup, then the extended protocol
 * (Parse, Describe, Bind, Execute, Sync) with the rows, errors and closes each statement's
 * script says. It replays what a client behind PgBouncer receives when its backend is
 * terminated while a result is on its way, which a real server does only by chance: the
 * database blip through PgBouncer (tests/system/db-blip.test.ts) failed 1 run in 40 before
 * patches 6 and 7 (docs/decisions.md §33).
 */

interface Script {
  /** rows of one int4 column `x` */
  rows: number[];
  /** after the rows: an ERROR (the statement fails, the session goes on) */
  error?: { code: string; message: string };
  /**
   * after the rows: what a terminated backend behind PgBouncer sends, FATAL 57P01 and then
   * PgBouncer's own FATAL 08P01, and the socket is closed
   */
  terminated?: true;
}

const SCRIPTS: Record<string, Script> = {
  "select x from five": { rows: [1, 2, 3, 4, 5] },
  "select x from one": { rows: [42] },
  "select x from cut": { rows: [1, 2, 3], terminated: true },
  "select x from failing": {
    rows: [1, 2, 3],
    error: { code: "22012", message: "division by zero" },
  },
};

/** postgres.js's array-type query after each (re)connect: two array types */
const TYPES_ROWS = [
  [16, 1000],
  [23, 1007],
];

function message(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, "latin1");
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}
const cstring = (text: string) => Buffer.from(`${text}\0`, "utf8");
const int16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
function rowDescription(columns: string[]): Buffer {
  const fields = columns.map((name) =>
    // table oid, column number, type oid (int4), size, modifier, text format
    Buffer.concat([cstring(name), int32(0), int16(0), int32(23), int16(4), int32(-1), int16(0)]),
  );
  return message("T", Buffer.concat([int16(columns.length), ...fields]));
}
function dataRow(values: number[]): Buffer {
  const cells = values.map((value) => {
    const text = Buffer.from(String(value));
    return Buffer.concat([int32(text.length), text]);
  });
  return message("D", Buffer.concat([int16(values.length), ...cells]));
}
function errorResponse(severity: string, code: string, text: string): Buffer {
  return message(
    "E",
    Buffer.concat([
      Buffer.from("S"),
      cstring(severity),
      Buffer.from("V"),
      cstring(severity),
      Buffer.from("C"),
      cstring(code),
      Buffer.from("M"),
      cstring(text),
      Buffer.from([0]),
    ]),
  );
}
const readyForQuery = message("Z", Buffer.from("I"));

interface FakeServer {
  port: number;
  /** statements received, in order, per connection number */
  log: string[];
  connections: number;
  close(): Promise<void>;
}

async function startFakeServer(): Promise<FakeServer> {
  const log: string[] = [];
  const sockets = new Set<Socket>();
  const state = { connections: 0 };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    const connection = ++state.connections;
    let buffer = Buffer.alloc(0);
    let started = false;
    let statement = "";
    /** after an ERROR, the extended protocol skips everything up to the next Sync */
    let skipping = false;

    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk as Buffer]);
      for (;;) {
        if (!started) {
          if (buffer.length < 4) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          buffer = buffer.subarray(length);
          started = true;
          socket.write(
            Buffer.concat([
              message("R", int32(0)), // AuthenticationOk
              message("S", Buffer.concat([cstring("server_version"), cstring("15.0")])),
              message("K", Buffer.concat([int32(connection), int32(7)])), // BackendKeyData
              readyForQuery,
            ]),
          );
          continue;
        }
        if (buffer.length < 5) return;
        const type = String.fromCharCode(buffer[0] as number);
        const length = buffer.readInt32BE(1);
        if (buffer.length < length + 1) return;
        const body = buffer.subarray(5, length + 1);
        buffer = buffer.subarray(length + 1);
        if (type === "X") return void socket.end();
        if (skipping && type !== "S") continue;
        if (!answer(type, body)) return;
      }
    });

    /** false once the connection is gone */
    function answer(type: string, body: Buffer): boolean {
      if (type === "P") {
        const nameEnd = body.indexOf(0);
        statement = body.toString("utf8", nameEnd + 1, body.indexOf(0, nameEnd + 1)).trim();
        log.push(`${connection}: ${statement.includes("pg_type") ? "<array types>" : statement}`);
        socket.write(message("1")); // ParseComplete
      } else if (type === "D") {
        const columns = statement.includes("pg_type") ? ["oid", "typarray"] : ["x"];
        socket.write(Buffer.concat([message("t", int16(0)), rowDescription(columns)]));
      } else if (type === "B") {
        socket.write(message("2")); // BindComplete
      } else if (type === "E") {
        if (statement.includes("pg_type")) {
          socket.write(
            Buffer.concat([
              ...TYPES_ROWS.map(dataRow),
              message("C", cstring(`SELECT ${TYPES_ROWS.length}`)),
            ]),
          );
          return true;
        }
        const script = SCRIPTS[statement];
        if (!script) throw new Error(`no script for ${statement}`);
        const rows = script.rows.map((x) => dataRow([x]));
        if (script.terminated) {
          socket.end(
            Buffer.concat([
              ...rows,
              errorResponse(
                "FATAL",
                "57P01",
                "terminating connection due to administrator command",
              ),
              errorResponse("FATAL", "08P01", "server conn crashed?"),
            ]),
          );
          return false;
        }
        if (script.error) {
          socket.write(
            Buffer.concat([
              ...rows,
              errorResponse("ERROR", script.error.code, script.error.message),
            ]),
          );
          skipping = true;
          return true;
        }
        socket.write(
          Buffer.concat([...rows, message("C", cstring(`SELECT ${script.rows.length}`))]),
        );
      } else if (type === "S") {
        skipping = false;
        socket.write(readyForQuery);
      }
      return true;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return {
    port: address.port,
    log,
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const servers: FakeServer[] = [];
const clients: postgres.Sql[] = [];
afterEach(async () => {
  for (const sql of clients.splice(0)) await sql.end({ timeout: 1 });
});
afterAll(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** one connection, statements unprepared: as the service's pool behind PgBouncer, max 1 */
async function client() {
  const server = await startFakeServer();
  servers.push(server);
  const sql = postgres({
    host: "127.0.0.1",
    port: server.port,
    user: "orgit",
    database: "orgit",
    max: 1,
    prepare: false,
    connect_timeout: 2,
    backoff: () => 0,
    onnotice: () => {},
  });
  clients.push(sql);
  return { sql, server };
}

const settled = (query: Promise<unknown>) =>
  query.then(
    (rows) => ({ rows: [...(rows as unknown[])], length: (rows as unknown[]).length }),
    (error: { code?: string }) => ({ error: error.code }),
  );

test("a statement whose backend is terminated mid-result fails; the next one is sent on the new session and answers its own rows", async () => {
  const { sql, server } = await client();
  expect(await settled(sql`select x from five`)).toEqual({
    rows: [{ x: 1 }, { x: 2 }, { x: 3 }, { x: 4 }, { x: 5 }],
    length: 5,
  });

  // three rows arrive, then FATAL 57P01, PgBouncer's FATAL 08P01, and the close
  const cut = await settled(sql`select x from cut`);
  expect(cut).toEqual({ error: "CONNECTION_CLOSED" });

  // the same postgres.js Connection reconnects for the next statement, which must neither fail
  // with the old session's 08P01 (unsent) nor have its row stored after three holes
  expect(await settled(sql`select x from one`)).toEqual({ rows: [{ x: 42 }], length: 1 });
  expect(await settled(sql`select x from five`)).toEqual({
    rows: [{ x: 1 }, { x: 2 }, { x: 3 }, { x: 4 }, { x: 5 }],
    length: 5,
  });
  expect(server.connections).toBe(2);
  // the array types are fetched again on the new session, before the caller's statement
  expect(server.log).toEqual([
    "1: <array types>",
    "1: select x from five",
    "1: select x from cut",
    "2: <array types>",
    "2: select x from one",
    "2: select x from five",
  ]);
});

test("a statement that fails mid-result (an ERROR, the session goes on) leaves the next statement's rows in place (porsager/postgres#1119, #1181)", async () => {
  const { sql } = await client();
  await sql`select x from one`; // connected, array types fetched
  // pipelined on the one connection: the second is sent before the first has failed
  const [failing, next] = await Promise.all([
    settled(sql`select x from failing`),
    settled(sql`select x from one`),
  ]);
  expect(failing).toEqual({ error: "22012" });
  expect(next).toEqual({ rows: [{ x: 42 }], length: 1 });
  expect(await settled(sql`select x from five`)).toMatchObject({ length: 5 });
});

import { describe, expect, test } from "bun:test";
import { createDecipheriv, createHmac, hkdfSync } from "node:crypto";
import {
  isSealed,
  openAnswer,
  ReplayUnreadableError,
  replayKey,
  type SealedAnswer,
  sealAnswer,
} from "../../src/http/replay-cipher.ts";

/**
 * The encryption of answers kept for Idempotency-Key replays (src/http/replay-cipher.ts), checked
 * against Node's own HKDF and AES-256-GCM: what is stored can be opened only with the caller's
 * key secret, its key id and the same request context, and by nobody reading the row alone.
 */
const SECRET = "orgit_0123456789abcdefghijklmnopqrstuvwxyzABCD";
const KEY_ID = "6f1c1c55-8d0e-4a36-9d7b-6a3f0f0f2b11";
const CONTEXT = `${KEY_ID}\nkey-1\n${"ab".repeat(32)}`;

/** What a reader holding only the secret and the id can do, without the service's code. */
function openWithNode(sealed: SealedAnswer, secret: string, id: string, context: string) {
  const key = Buffer.from(
    hkdfSync("sha256", secret, id, "orgit idempotency replay v1", 32) as ArrayBuffer,
  );
  const data = Buffer.from(sealed.data, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(sealed.iv, "base64"));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(data.subarray(data.length - 16));
  return JSON.parse(
    Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString(
      "utf8",
    ),
  );
}

describe("sealAnswer / openAnswer", () => {
  test("a sealed answer is AES-256-GCM under HKDF-SHA-256(secret, salt = key id, the v1 info), the context bound", async () => {
    const key = await replayKey(SECRET, KEY_ID);
    const body = { id: "p1", secret: "whsec_abc", names: ["Zoë", "東京", "🚀"] };
    const sealed = await sealAnswer(key, body, CONTEXT);
    expect(sealed.v).toBe(1);
    expect(Object.keys(sealed).sort()).toEqual(["data", "iv", "v"]);
    expect(Buffer.from(sealed.iv, "base64")).toHaveLength(12);
    // ciphertext + 16-byte tag, nothing of the plain text in the row
    const plain = JSON.stringify(body);
    expect(Buffer.from(sealed.data, "base64")).toHaveLength(Buffer.byteLength(plain) + 16);
    expect(JSON.stringify(sealed)).not.toContain("whsec_abc");
    expect(openWithNode(sealed, SECRET, KEY_ID, CONTEXT)).toEqual(body);
    expect(await openAnswer(key, sealed, CONTEXT)).toEqual(body);
  });

  test("null and undefined bodies are kept as JSON null", async () => {
    const key = await replayKey(SECRET, KEY_ID);
    for (const body of [null, undefined]) {
      const sealed = await sealAnswer(key, body, CONTEXT);
      expect(openWithNode(sealed, SECRET, KEY_ID, CONTEXT)).toBeNull();
      expect(await openAnswer(key, sealed, CONTEXT)).toBeNull();
    }
  });

  test("a large answer (over one 32 KiB base64 chunk) survives the round trip byte for byte", async () => {
    const key = await replayKey(SECRET, KEY_ID);
    // multi-byte characters across several chunk boundaries: a dropped or repeated byte shows
    const body = { items: Array.from({ length: 8_000 }, (_, i) => `${i}:${"é✓".repeat(i % 7)}`) };
    const sealed = await sealAnswer(key, body, CONTEXT);
    expect(Buffer.from(sealed.data, "base64").length).toBeGreaterThan(3 * 0x8000);
    expect(openWithNode(sealed, SECRET, KEY_ID, CONTEXT)).toEqual(body);
    expect(await openAnswer(key, sealed, CONTEXT)).toEqual(body);
  });

  test("the derived key cannot be exported from memory", async () => {
    const key = await replayKey(SECRET, KEY_ID);
    expect(key.extractable).toBe(false);
    expect(key.algorithm).toMatchObject({ name: "AES-GCM", length: 256 });
    expect([...key.usages].sort()).toEqual(["decrypt", "encrypt"]);
    const exported = await crypto.subtle.exportKey("raw", key).then(
      () => "exported",
      () => "refused",
    );
    expect(exported).toBe("refused");
  });

  test("every seal uses a fresh nonce", async () => {
    const key = await replayKey(SECRET, KEY_ID);
    const [one, two] = [
      await sealAnswer(key, { a: 1 }, CONTEXT),
      await sealAnswer(key, { a: 1 }, CONTEXT),
    ];
    expect(one.iv).not.toBe(two.iv);
    expect(one.data).not.toBe(two.data);
  });

  test("another key secret, another key id, another context or a damaged row do not open it", async () => {
    const key = await replayKey(SECRET, KEY_ID);
    const sealed = await sealAnswer(key, { id: "p1" }, CONTEXT);
    const refused = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ReplayUnreadableError);
      expect((error as Error).message).toBe("The stored answer cannot be decrypted with this key");
    };
    await refused(openAnswer(await replayKey(`${SECRET}x`, KEY_ID), sealed, CONTEXT));
    await refused(openAnswer(await replayKey(SECRET, `${KEY_ID}x`), sealed, CONTEXT));
    await refused(openAnswer(key, sealed, `${CONTEXT}x`));
    const bytes = Buffer.from(sealed.data, "base64");
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    await refused(openAnswer(key, { ...sealed, data: bytes.toString("base64") }, CONTEXT));
    await refused(openAnswer(key, { ...sealed, iv: Buffer.alloc(12).toString("base64") }, CONTEXT));
    // the right key opens it (the refusals above are not a broken key)
    expect(await openAnswer(key, sealed, CONTEXT)).toEqual({ id: "p1" });
  });

  test("the key is derived from the secret: an HMAC of the same secret is not it", async () => {
    // guards against a derivation that ignores its input: two secrets give two keys
    const a = await sealAnswer(await replayKey(SECRET, KEY_ID), { n: 1 }, CONTEXT);
    expect(() =>
      openWithNode(a, createHmac("sha256", SECRET).digest("hex"), KEY_ID, CONTEXT),
    ).toThrow();
  });
});

describe("isSealed", () => {
  test("only { v: 1, iv: string, data: string } counts as a sealed answer", () => {
    expect(isSealed({ v: 1, iv: "a", data: "b" })).toBe(true);
    for (const value of [
      null,
      undefined,
      "sealed",
      1,
      {},
      { v: 2, iv: "a", data: "b" },
      { v: "1", iv: "a", data: "b" },
      { v: 1, iv: 1, data: "b" },
      { v: 1, iv: "a", data: 2 },
      { v: 1, iv: "a" },
      { v: 1, data: "b" },
      { iv: "a", data: "b" },
      { id: "p1", name: "a plain answer stored before encryption" },
    ]) {
      expect(isSealed(value), JSON.stringify(value) ?? "undefined").toBe(false);
    }
  });
});

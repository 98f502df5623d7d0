import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";

/**
 * A software WebAuthn authenticator for in-process tests: a P-256 key per credential, "none"
 * attestation, discoverable credentials with user verification, and a signature counter the
 * test can move (backwards too). It answers the JSON that @simplewebauthn/browser would post,
 * so the service's real verification (@simplewebauthn/server) runs on it.
 */

// --- the little CBOR the authenticator needs (RFC 8949): integers, bytes, text, maps ---
type Cbor = number | Uint8Array | string | Map<Cbor, Cbor>;

function head(major: number, length: number): number[] {
  if (length < 24) return [(major << 5) | length];
  if (length < 256) return [(major << 5) | 24, length];
  if (length < 65536) return [(major << 5) | 25, length >> 8, length & 255];
  throw new Error("CBOR length too large for this encoder");
}

export function cbor(value: Cbor): Uint8Array {
  if (typeof value === "number") {
    return new Uint8Array(value >= 0 ? head(0, value) : head(1, -1 - value));
  }
  if (typeof value === "string") {
    const bytes = new TextEncoder().encode(value);
    return new Uint8Array([...head(3, bytes.length), ...bytes]);
  }
  if (value instanceof Uint8Array) return new Uint8Array([...head(2, value.length), ...value]);
  const parts = [...value].flatMap(([k, v]) => [...cbor(k), ...cbor(v)]);
  return new Uint8Array([...head(5, value.size), ...parts]);
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (bytes: Uint8Array | string) =>
  new Uint8Array(createHash("sha256").update(bytes).digest());
const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

const FLAGS = { userPresent: 0x01, userVerified: 0x04, attested: 0x40 };

export interface SoftCredential {
  id: Uint8Array;
  privateKey: KeyObject;
  cosePublicKey: Uint8Array;
  rpId: string;
  userHandle: string;
  signCount: number;
}

/** Options as the service hands them to the browser (the parts the authenticator reads). */
interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(
    private readonly origin: string,
    private readonly userVerified = true,
  ) {}

  private flags(extra = 0) {
    return FLAGS.userPresent | (this.userVerified ? FLAGS.userVerified : 0) | extra;
  }

  /** Answers navigator.credentials.create(): a new credential, as RegistrationResponseJSON. */
  create(
    options: CreationOptions,
    overrides: { origin?: string; challenge?: string; transports?: string[] } = {},
  ) {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const cosePublicKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, new Uint8Array(Buffer.from(jwk.x as string, "base64url"))],
        [-3, new Uint8Array(Buffer.from(jwk.y as string, "base64url"))],
      ]),
    );
    const credential: SoftCredential = {
      id: new Uint8Array(randomBytes(32)),
      privateKey,
      cosePublicKey,
      rpId,
      userHandle: options.user.id,
      signCount: 0,
    };
    this.credentials.push(credential);
    const authData = new Uint8Array([
      ...sha256(rpId),
      this.flags(FLAGS.attested),
      ...u32(0),
      ...new Uint8Array(16), // AAGUID: none
      credential.id.length >> 8,
      credential.id.length & 255,
      ...credential.id,
      ...cosePublicKey,
    ]);
    const clientData = JSON.stringify({
      type: "webauthn.create",
      challenge: overrides.challenge ?? options.challenge,
      origin: overrides.origin ?? this.origin,
      crossOrigin: false,
    });
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(new TextEncoder().encode(clientData)),
        attestationObject: b64url(attestationObject),
        transports: overrides.transports ?? ["internal"],
      },
    };
  }

  /**
   * Answers navigator.credentials.get() with a credential (the first one by default), its
   * counter raised by one unless `signCount` sets it, as AuthenticationResponseJSON.
   */
  get(
    options: RequestOptions,
    pick: { credential?: SoftCredential; signCount?: number; origin?: string } = {},
  ) {
    const credential = pick.credential ?? this.credentials[0];
    if (!credential) throw new Error("the authenticator holds no credential");
    credential.signCount = pick.signCount ?? credential.signCount + 1;
    const authData = new Uint8Array([
      ...sha256(options.rpId ?? credential.rpId),
      this.flags(),
      ...u32(credential.signCount),
    ]);
    const clientData = new TextEncoder().encode(
      JSON.stringify({
        type: "webauthn.get",
        challenge: options.challenge,
        origin: pick.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
    const signature = sign(
      "sha256",
      Buffer.concat([authData, sha256(clientData)]),
      credential.privateKey,
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(new Uint8Array(signature)),
        userHandle: credential.userHandle,
      },
    };
  }
}

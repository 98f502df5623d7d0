import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_VARIABLES, ConfigError, loadConfig } from "../../src/config.ts";
import { PROBE_PATHS } from "../../src/http/probes.ts";

/**
 * The deployment examples (deploy/compose.yaml, deploy/kubernetes/orgit.yaml,
 * deploy/haproxy.cfg; docs/scaling.md) checked against what the service reads: every variable
 * they set is one src/config.ts knows, the values they set (secrets as placeholders) pass its
 * validation, and every port and probe path they name is the one the service listens on.
 */
const ROOT = join(import.meta.dir, "../..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
type Doc = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: walking parsed YAML
type Any = any;

/** What the image sets (Dockerfile ENV): the manifests add to it. */
const dockerfileEnv = (): Record<string, string> => {
  const line = read("Dockerfile").match(/^ENV (.+)$/m)?.[1] ?? "";
  return Object.fromEntries(line.split(/\s+/).map((pair) => pair.split("=") as [string, string]));
};

/** Compose's `${NAME:?message}`: placeholders of the right shape for each secret. */
const PLACEHOLDERS: Record<string, string> = {
  ORGIT_DB_PASSWORD: "db-password",
  ORGIT_REPLICATION_PASSWORD: "replication-password",
  ORGIT_ADMIN_TOKEN: "admin-token-0123456789",
  ORGIT_WEBHOOK_SECRET_KEY: "webhook-secret-key-0123456789abcdef",
};
const interpolate = (value: string) =>
  value.replace(/\$\{(\w+)(:\?[^}]*)?\}/g, (_, name: string) => {
    expect(PLACEHOLDERS[name], `compose names \${${name}}: give it a placeholder`).toBeDefined();
    return PLACEHOLDERS[name] as string;
  });

const unknownVariables = (names: string[]) => names.filter((n) => !CONFIG_VARIABLES.includes(n));

test("compose: the orgit service sets only variables src/config.ts reads, with values it accepts", () => {
  const compose = Bun.YAML.parse(read("deploy/compose.yaml")) as Any;
  const orgit = compose.services.orgit;
  const env = orgit.environment as Record<string, string>;
  expect(unknownVariables(Object.keys(env)), "variables src/config.ts does not read").toEqual([]);
  const values = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, interpolate(v)]));
  const config = loadConfig({ ...dockerfileEnv(), ...values });
  expect(config.pooler, "through PgBouncer").toBe("pgbouncer");
  expect(config.readUrls.length, "one replica").toBe(1);
  expect(orgit.expose, "the port the service listens on").toEqual([String(config.port)]);
  expect(orgit.deploy.replicas).toBeGreaterThanOrEqual(2);
  // each URL points at a service of this file, on the port that service listens on
  const hosts = [config.databaseUrl, config.directUrl, ...config.readUrls, config.redisUrl]
    .map((url) => new URL(url as string).hostname)
    .filter((host) => !(host in compose.services));
  expect(hosts, "URLs naming no service of compose.yaml").toEqual([]);
  expect(new URL(config.databaseUrl as string).port).toBe(
    compose.services.pgbouncer.environment.PGBOUNCER_PORT,
  );
});

test("HAProxy: checks /readyz and sends to the port compose's instances listen on", () => {
  const cfg = read("deploy/haproxy.cfg");
  const compose = Bun.YAML.parse(read("deploy/compose.yaml")) as Any;
  const port = compose.services.orgit.environment.PORT;
  const check = cfg.match(/http-check send meth GET uri (\S+) ver HTTP\/1\.1 hdr Host \S+/)?.[1];
  expect(PROBE_PATHS.has(check ?? ""), `health check path ${check}`).toBe(true);
  expect(check).toBe("/readyz");
  const server = cfg.match(/server-template \S+ (\d+) (\w+):(\d+)/);
  expect(server?.[2], "servers: the compose service").toBe("orgit");
  expect(server?.[3], "servers: the instances' PORT").toBe(port);
  expect(Number(server?.[1]), "one server slot per replica").toBe(
    compose.services.orgit.deploy.replicas,
  );
  const published = compose.services.haproxy.ports[0].split(":")[1];
  expect(cfg, "HAProxy binds the port compose publishes").toContain(`bind :${published}`);
});

test("Kubernetes: Deployment, Service, HPA and PDB agree with each other and with src/config.ts", () => {
  const docs = Bun.YAML.parse(read("deploy/kubernetes/orgit.yaml")) as Doc[];
  const byKind = new Map(docs.map((doc) => [doc.kind as string, doc as Any]));
  expect([...byKind.keys()].sort()).toEqual([
    "ConfigMap",
    "Deployment",
    "HorizontalPodAutoscaler",
    "PodDisruptionBudget",
    "Service",
  ]);
  for (const doc of docs as Any[]) {
    expect(typeof doc.apiVersion, `${doc.kind}: apiVersion`).toBe("string");
    expect(doc.metadata?.name, `${doc.kind}: metadata.name`).toMatch(/^[a-z0-9-]+$/);
  }
  const config = byKind.get("ConfigMap");
  const deployment = byKind.get("Deployment");
  const pod = deployment.spec.template.spec;
  const [container] = pod.containers;
  const secretNames = (container.env as Any[]).map((e) => e.name as string);
  const configNames = Object.keys(config.data);
  expect(unknownVariables([...secretNames, ...configNames]), "unknown variables").toEqual([]);
  for (const entry of container.env as Any[]) {
    expect(entry.valueFrom.secretKeyRef.key, "secret key named as its variable").toBe(entry.name);
  }
  expect(container.envFrom[0].configMapRef.name).toBe(config.metadata.name);

  // the values (secrets as placeholders of the right shape) pass the service's validation
  const secrets: Record<string, string> = {
    DATABASE_URL: "postgres://orgit:pw@pgbouncer:6432/orgit",
    DATABASE_DIRECT_URL: "postgres://orgit:pw@postgres-primary:5432/orgit",
    DATABASE_READ_URLS: "postgres://orgit:pw@postgres-replica:5432/orgit",
    REDIS_URL: "redis://redis:6379",
    ADMIN_TOKEN: PLACEHOLDERS.ORGIT_ADMIN_TOKEN as string,
    WEBHOOK_SECRET_KEY: PLACEHOLDERS.ORGIT_WEBHOOK_SECRET_KEY as string,
  };
  expect(Object.keys(secrets).sort()).toEqual([...secretNames].sort());
  let loaded: ReturnType<typeof loadConfig> | undefined;
  try {
    loaded = loadConfig({ ...dockerfileEnv(), ...config.data, ...secrets });
  } catch (error) {
    throw new Error(error instanceof ConfigError ? error.message : String(error));
  }
  const http = (container.ports as Any[]).find((p) => p.name === "http");
  expect(http.containerPort, "containerPort is PORT").toBe(loaded.port);

  for (const probe of ["readinessProbe", "livenessProbe", "startupProbe"]) {
    const get = container[probe].httpGet;
    expect(PROBE_PATHS.has(get.path), `${probe} path ${get.path}`).toBe(true);
    expect(get.port, `${probe} port`).toBe("http");
  }
  expect(container.readinessProbe.httpGet.path).toBe("/readyz");
  expect(container.livenessProbe.httpGet.path, "liveness never depends on the database").toBe(
    "/livez",
  );

  const labels = deployment.spec.template.metadata.labels;
  expect(deployment.spec.selector.matchLabels).toEqual(labels);
  const service = byKind.get("Service");
  expect(service.spec.selector).toEqual(labels);
  expect(service.spec.ports[0].targetPort, "the Service sends to the named port").toBe("http");
  const hpa = byKind.get("HorizontalPodAutoscaler");
  expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: "Deployment", name: "orgit" });
  expect(hpa.spec.minReplicas).toBeLessThanOrEqual(hpa.spec.maxReplicas);
  const pdb = byKind.get("PodDisruptionBudget");
  expect(pdb.spec.selector.matchLabels).toEqual(labels);
  expect(pdb.spec.minAvailable, "the PDB leaves room to drain a node").toBeLessThan(
    hpa.spec.minReplicas,
  );
});

/**
 * What an operator starts from (deploy/): the compose file, the Kubernetes manifests and the Grafana dashboard
 * parse, carry the fields their kinds require (a schema of our own for each kind shipped: no kubeconform here),
 * agree with each other (selectors, names, ports, the Secret's keys) and name only files that exist and settings
 * the server reads. `docker compose config` checks the compose file too where Docker's compose plugin exists.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { environmentSchema } from '../../server/environment';

const DEPLOY = join(import.meta.dirname, '../../deploy');
const KUBE = join(DEPLOY, 'kubernetes');
const read = (path: string) => readFileSync(join(DEPLOY, path), 'utf8');

/** A setting the server reads (server/environment.ts), or one of OpenTelemetry's own variables. */
const serverReads = (name: string) => name in environmentSchema.shape || name.startsWith('OTEL_');

const name = z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
const labels = z.record(z.string(), z.string());
const metadata = z.object({ name, labels: labels.optional(), annotations: labels.optional() });
const httpProbe = (path: string) =>
  z.object({
    httpGet: z.object({ path: z.literal(path), port: z.union([z.string(), z.number()]) }),
    periodSeconds: z.number().int().positive(),
    failureThreshold: z.number().int().positive(),
  });
const secretEnv = z.object({
  name: z.string(),
  valueFrom: z.object({ secretKeyRef: z.object({ name, key: z.string() }) }),
});
const container = z.object({
  name,
  image: z.string().min(1),
  ports: z.array(z.object({ name: z.string(), containerPort: z.number().int() })).min(1),
  envFrom: z.array(z.object({ configMapRef: z.object({ name }) })),
  env: z.array(secretEnv),
  readinessProbe: httpProbe('/readyz'),
  livenessProbe: httpProbe('/healthz'),
  resources: z.object({ requests: z.object({ cpu: z.string(), memory: z.string() }) }),
});

const schemas = {
  Namespace: z.object({ apiVersion: z.literal('v1'), kind: z.literal('Namespace'), metadata }),
  ConfigMap: z.object({
    apiVersion: z.literal('v1'),
    kind: z.literal('ConfigMap'),
    metadata,
    data: z.record(z.string(), z.string()),
  }),
  Deployment: z.object({
    apiVersion: z.literal('apps/v1'),
    kind: z.literal('Deployment'),
    metadata,
    spec: z.object({
      replicas: z.number().int().min(2),
      selector: z.object({ matchLabels: labels }),
      strategy: z.object({
        type: z.literal('RollingUpdate'),
        rollingUpdate: z.object({ maxUnavailable: z.literal(0), maxSurge: z.number().int().positive() }),
      }),
      template: z.object({
        metadata: z.object({ labels }),
        spec: z.object({
          terminationGracePeriodSeconds: z.number().int().positive(),
          containers: z.array(container).length(1),
        }),
      }),
    }),
  }),
  Service: z.object({
    apiVersion: z.literal('v1'),
    kind: z.literal('Service'),
    metadata,
    spec: z.object({
      selector: labels,
      ports: z.array(z.object({ name: z.string(), port: z.number().int(), targetPort: z.string() })).min(1),
    }),
  }),
  PodDisruptionBudget: z.object({
    apiVersion: z.literal('policy/v1'),
    kind: z.literal('PodDisruptionBudget'),
    metadata,
    spec: z
      .object({
        selector: z.object({ matchLabels: labels }),
        maxUnavailable: z.number().int().positive().optional(),
        minAvailable: z.number().int().positive().optional(),
      })
      .refine((spec) => (spec.maxUnavailable === undefined) !== (spec.minAvailable === undefined)),
  }),
  Ingress: z.object({
    apiVersion: z.literal('networking.k8s.io/v1'),
    kind: z.literal('Ingress'),
    metadata,
    spec: z.object({
      ingressClassName: z.string(),
      rules: z.array(
        z.object({
          host: z.string(),
          http: z.object({
            paths: z.array(
              z.object({
                path: z.string(),
                pathType: z.enum(['Prefix', 'Exact', 'ImplementationSpecific']),
                backend: z.object({ service: z.object({ name, port: z.object({ name: z.string() }) }) }),
              }),
            ),
          }),
        }),
      ),
    }),
  }),
} as const;
type Kind = keyof typeof schemas;
type Manifest<K extends Kind> = z.infer<(typeof schemas)[K]>;

/** Every manifest of the kustomization, each parsed by the schema of its kind. */
function manifests() {
  const kustomization = z
    .object({ kind: z.literal('Kustomization'), resources: z.array(z.string()).min(1) })
    .parse(parse(readFileSync(join(KUBE, 'kustomization.yaml'), 'utf8')));
  const byKind = new Map<Kind, unknown[]>();
  for (const file of kustomization.resources) {
    for (const doc of parseAllDocuments(readFileSync(join(KUBE, file), 'utf8'))) {
      expect(doc.errors, file).toEqual([]);
      const object = doc.toJS() as { kind?: string };
      const kind = object.kind as Kind;
      expect(Object.keys(schemas), `${file}: kind ${object.kind}`).toContain(kind);
      const parsed = schemas[kind].safeParse(object);
      expect(parsed.error?.issues ?? [], file).toEqual([]);
      byKind.set(kind, [...(byKind.get(kind) ?? []), parsed.data]);
    }
  }
  const one = <K extends Kind>(kind: K): Manifest<K> => {
    const all = byKind.get(kind) ?? [];
    expect(all, kind).toHaveLength(1);
    return all[0] as Manifest<K>;
  };
  return { kustomization, one };
}

const matches = (selector: Record<string, string>, labelled: Record<string, string>) =>
  Object.entries(selector).every(([key, value]) => labelled[key] === value);

describe('the Kubernetes manifests', () => {
  it('are listed in the kustomization, and each has the fields of its kind', () => {
    const { kustomization, one } = manifests();
    const files = readdirSync(KUBE).filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml');
    expect([...kustomization.resources].sort()).toEqual(files.sort());
    for (const kind of Object.keys(schemas) as Kind[]) one(kind);
  });

  it('agree with each other: selectors, ports, the ConfigMap, the Secret the README names', () => {
    const { one } = manifests();
    const deployment = one('Deployment');
    const podLabels = deployment.spec.template.metadata.labels;
    expect(matches(deployment.spec.selector.matchLabels, podLabels)).toBe(true);
    expect(matches(one('Service').spec.selector, podLabels)).toBe(true);
    expect(matches(one('PodDisruptionBudget').spec.selector.matchLabels, podLabels)).toBe(true);

    const [server] = deployment.spec.template.spec.containers;
    const portNames = server?.ports.map((port) => port.name) ?? [];
    expect(portNames).toContain(one('Service').spec.ports[0]?.targetPort);
    const backend = one('Ingress').spec.rules[0]?.http.paths[0]?.backend.service;
    expect(backend?.name).toBe(one('Service').metadata.name);
    expect(one('Service').spec.ports.map((port) => port.name)).toContain(backend?.port.name);

    const configMap = one('ConfigMap');
    expect(server?.envFrom.map((from) => from.configMapRef.name)).toEqual([configMap.metadata.name]);
    for (const key of Object.keys(configMap.data)) expect(serverReads(key), key).toBe(true);

    // The Secret: one, its every key a setting the server reads and a row of the README's table.
    const readme = readFileSync(join(KUBE, 'README.md'), 'utf8');
    const refs = server?.env.map((env) => env.valueFrom.secretKeyRef) ?? [];
    expect(new Set(refs.map((ref) => ref.name))).toEqual(new Set(['idv-secrets']));
    for (const { key } of refs) {
      expect(serverReads(key), key).toBe(true);
      expect(readme, key).toContain(`| \`${key}\` |`);
    }
    for (const env of server?.env ?? []) expect(env.name).toBe(env.valueFrom.secretKeyRef.key);
  });
});

const composeSchema = z.object({
  services: z.record(
    z.string(),
    z.object({
      image: z.string().optional(),
      build: z.object({ context: z.string(), dockerfile: z.string() }).optional(),
      volumes: z.array(z.string()).optional(),
      environment: z.record(z.string(), z.string()).optional(),
      depends_on: z.union([z.array(z.string()), z.record(z.string(), z.unknown())]).optional(),
      secrets: z.array(z.string()).optional(),
    }),
  ),
  secrets: z.record(z.string(), z.object({ environment: z.string() })).optional(),
  volumes: z.record(z.string(), z.unknown()).optional(),
});

describe('the compose file', () => {
  const compose = composeSchema.parse(parse(read('compose.yaml'), { merge: true }));

  it('runs every service a production site needs', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      [
        'alertmanager',
        'coturn',
        'grafana',
        'minio',
        'minio-bucket',
        'nginx',
        'otel-collector',
        'postgres',
        'prometheus',
        'redis',
        'server-a',
        'server-b',
      ].sort(),
    );
    for (const [service, definition] of Object.entries(compose.services))
      expect(definition.image ?? definition.build, service).toBeDefined();
  });

  it('names only files that exist, volumes it declares and settings the server reads', () => {
    for (const [service, definition] of Object.entries(compose.services)) {
      if (definition.build)
        expect(existsSync(join(DEPLOY, definition.build.context, definition.build.dockerfile))).toBe(true);
      for (const volume of definition.volumes ?? []) {
        const [source] = volume.split(':') as [string];
        if (source.startsWith('.'))
          expect(existsSync(join(DEPLOY, source)), `${service}: ${source}`).toBe(true);
        else expect(Object.keys(compose.volumes ?? {}), `${service}: ${source}`).toContain(source);
      }
      for (const secret of definition.secrets ?? [])
        expect(Object.keys(compose.secrets ?? {}), `${service}: ${secret}`).toContain(secret);
    }
    for (const server of ['server-a', 'server-b'])
      for (const variable of Object.keys(compose.services[server]?.environment ?? {}))
        expect(serverReads(variable), `${server}: ${variable}`).toBe(true);
  });

  it('scrapes both servers, and hands Grafana the dashboard where its provisioning looks', () => {
    const prometheus = read('prometheus/prometheus.yml');
    for (const server of ['server-a', 'server-b'])
      expect(prometheus).toMatch(new RegExp(`["']${server}:8080["']`));
    const provider = parse(read('grafana/provisioning/dashboards/idv.yml')) as {
      providers: { options: { path: string } }[];
    };
    const folder = provider.providers[0]?.options.path;
    expect(compose.services.grafana?.volumes).toContain(
      `./grafana/studio-dashboard.json:${folder}/studio-dashboard.json:ro`,
    );
    for (const upstream of ['server-a:8080', 'server-b:8080']) expect(read('nginx.conf')).toContain(upstream);
  });

  const docker = spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0;
  it.runIf(docker)('passes docker compose config', () => {
    const env = Object.fromEntries(
      [...read('env.example').matchAll(/^([A-Z_]+)=/gm)].map((match) => [match[1], 'set-for-the-check']),
    );
    const result = spawnSync('docker', ['compose', '-f', join(DEPLOY, 'compose.yaml'), 'config', '--quiet'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('the Grafana dashboard', () => {
  const dashboard = z
    .object({
      uid: z.string(),
      title: z.string(),
      templating: z.object({ list: z.array(z.object({ name: z.string(), type: z.string() })) }),
      panels: z.array(
        z.object({
          id: z.number().int(),
          type: z.string(),
          title: z.string(),
          gridPos: z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }),
          datasource: z.object({ uid: z.string() }).optional(),
          targets: z.array(z.object({ expr: z.string().min(1), refId: z.string() })).optional(),
        }),
      ),
    })
    .parse(JSON.parse(read('grafana/studio-dashboard.json')));

  it('has unique panels on the grid, each reading the Prometheus the operator picks', () => {
    expect(new Set(dashboard.panels.map((panel) => panel.id)).size).toBe(dashboard.panels.length);
    expect(dashboard.templating.list).toContainEqual(expect.objectContaining({ name: 'datasource' }));
    for (const panel of dashboard.panels) {
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
      if (panel.type === 'row') continue;
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, not a template string.
      expect(panel.datasource?.uid, panel.title).toBe('${datasource}');
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    }
    expect(statSync(join(DEPLOY, 'grafana/studio-dashboard.json')).size).toBeGreaterThan(0);
  });
});

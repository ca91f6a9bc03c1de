/**
 * The alert rules (deploy/prometheus/alerts.yml) under Prometheus's own tool: `promtool check rules` (syntax,
 * PromQL, templates) and `promtool test rules` (alerts.test.yml: each alert fires when it should and not
 * before). Runs where promtool is installed (Debian's prometheus package).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = join(import.meta.dirname, '../../deploy/prometheus');
const PROMTOOL = process.env.PROMTOOL ?? 'promtool';
const available = spawnSync(PROMTOOL, ['--version'], { stdio: 'ignore' }).status === 0;

const promtool = (args: string[], cwd = DIR) =>
  execFileSync(PROMTOOL, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe.runIf(available)('alert rules under promtool', () => {
  it('pass promtool check rules', () => {
    expect(promtool(['check', 'rules', 'alerts.yml'])).toMatch(/SUCCESS: 9 rules found/);
  });

  it('fire as their unit tests say (promtool test rules)', () => {
    expect(promtool(['test', 'rules', 'alerts.test.yml'])).toMatch(/SUCCESS/);
  });

  it('and the Prometheus configuration that loads them passes promtool check config', () => {
    // promtool checks that the token file exists: the secret compose mounts is a file of the test's here.
    const dir = mkdtempSync(join(tmpdir(), 'idv-prometheus-'));
    try {
      const token = join(dir, 'metrics_token');
      writeFileSync(token, 'a-token');
      copyFileSync(join(DIR, 'alerts.yml'), join(dir, 'alerts.yml'));
      const config = readFileSync(join(DIR, 'prometheus.yml'), 'utf8');
      expect(config).toContain('credentials_file: /run/secrets/metrics_token');
      writeFileSync(join(dir, 'prometheus.yml'), config.replace('/run/secrets/metrics_token', token));
      expect(promtool(['check', 'config', 'prometheus.yml'], dir)).toMatch(/SUCCESS: 1 rule files found/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

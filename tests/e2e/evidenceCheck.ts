import { execFileSync, spawnSync } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';

/** What an auditor has once the package checked out: the unpacked folder and what `sha256sum -c` printed. */
export interface CheckedEvidence {
  files: string;
  /** `sha256sum -c`'s lines, one `<path>: OK` per file of the manifest. */
  checked: string;
  json: <T>(name: string) => T;
}

/**
 * Downloads a call's evidence package with its "Download evidence" button, and checks it
 * offline as an auditor would: a ZIP named after the call, `sha256sum -c manifest.sha256` passes, and the
 * manifest's Ed25519 signature verifies with the key of GET /api/v2/evidence/public_key. `inspect` then looks
 * at the unpacked files; the folder is removed afterwards.
 */
export async function checkEvidence(
  page: Page,
  request: APIRequestContext,
  callId: number,
  button: Locator,
  inspect: (evidence: CheckedEvidence) => Promise<void> | void,
): Promise<void> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toBe(`call-${callId}-evidence.zip`);
  const dir = mkdtempSync(join(tmpdir(), 'evidence-e2e-'));
  try {
    const zip = join(dir, 'package.zip');
    await download.saveAs(zip);
    expect(readFileSync(zip).subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    const files = join(dir, 'files');
    execFileSync('unzip', ['-q', zip, '-d', files]);
    const check = spawnSync('sha256sum', ['-c', 'manifest.sha256'], { cwd: files, encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const key = (await (await request.get('/api/v2/evidence/public_key')).json()) as {
      public_key_pem: string;
    };
    const signature = Buffer.from(readFileSync(join(files, 'manifest.sha256.sig'), 'utf8').trim(), 'base64');
    expect(
      verify(
        null,
        readFileSync(join(files, 'manifest.sha256')),
        createPublicKey(key.public_key_pem),
        signature,
      ),
    ).toBe(true);
    const json = <T>(name: string) => JSON.parse(readFileSync(join(files, name), 'utf8')) as T;
    expect(json<{ call: { id: number } }>('call.json').call.id).toBe(callId);
    await inspect({ files, checked: check.stdout, json });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * https scenarios: a self-signed certificate for 127.0.0.1 is made at test time with the system `openssl` (no
 * download), and the scenario runs in a child Node process that trusts exactly that certificate through
 * NODE_EXTRA_CA_CERTS (read only at process start), so the client verifies TLS as it would against a real server.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { killGroup } from '../support/codeServer';

export interface TestCert {
  readonly cert: string;
  readonly key: string;
  readonly dir: string;
  dispose(): void;
}

/** Whether the system has an `openssl` that can make the certificate; the tls scenarios skip (saying so) if not. */
export function opensslAvailable(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function makeSelfSignedCert(): TestCert {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fountain-tls-'));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { cert, key, dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs one scenario file in a child process (own process group) that trusts `cert`; resolves to its failures. */
export async function runScenarioTrusting(file: string, c: TestCert, timeoutMs = 20_000): Promise<string[]> {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'runOne.ts'), file], {
    cwd: path.resolve(__dirname, '..', '..'),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_EXTRA_CA_CERTS: c.cert,
      FOUNTAIN_TEST_TLS_CERT: c.cert,
      FOUNTAIN_TEST_TLS_KEY: c.key,
    },
  });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const timer = setTimeout(() => void killGroup(proc, 1000), timeoutMs);
  const code = await new Promise<number | null>((r) => proc.once('exit', r));
  clearTimeout(timer);
  await killGroup(proc, 0);
  const last = out.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(last) as string[];
  } catch {
    return [`the scenario process exited with ${code}: ${(err || out).slice(-2000)}`];
  }
}

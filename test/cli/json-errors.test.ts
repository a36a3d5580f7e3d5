/**
 * With -o json or -o ndjson a failing command writes one JSON line on stderr,
 * {"error":{code,message,hint,status}}, with a stable code (core/error-code.ts):
 * a script reads the code instead of parsing English. Without them, the sentence.
 */
import { expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const lastJson = (stderr: string) => JSON.parse(stderr.trim().split('\n').pop()!) as { error: { code: string; message: string; hint: string | null; status: number | null } };

it('an unknown id: not_found with the service status, the same sentence as without -o json', async () => {
  const json = await runCli(['invitations', 'get', '999', '-o', 'json']);
  const text = await runCli(['invitations', 'get', '999']);
  expect(json.code).toBe(1);
  expect(lastJson(json.stderr).error).toEqual({ code: 'not_found', message: 'Invitation not found (400 from GET /invitations/999)', hint: null, status: 400 });
  expect(text.stderr).toContain('Error: Invitation not found (400 from GET /invitations/999)');
  expect(text.stderr).not.toContain('{"error"');
});

it('commander usage errors and the kit schema errors: usage, exit 2', async () => {
  const r = await runCli(['teams', '--bogus', '-o', 'ndjson']);
  expect(r.code).toBe(2);
  expect(lastJson(r.stderr).error).toMatchObject({ code: 'usage', message: "unknown option '--bogus'" });
  const s = await runCli(['--output=json', 'invitations', 'get', 'abc']);
  expect(s.code).toBe(2);
  expect(lastJson(s.stderr).error).toMatchObject({ code: 'usage', message: 'ID: ID must be a positive integer.' });
});

it('a mode mismatch is told apart from a refused key (both exit 4)', async () => {
  const r = await runCli(['--live', 'teams', '-o', 'json'], { env: { JOBFIT_API_KEY: 'sk_test_abcdefabcdef' } });
  expect(r.code).toBe(4);
  expect(lastJson(r.stderr).error.code).toBe('mode_mismatch');
  const bad = await runCli(['teams', '-o', 'json'], { env: { JOBFIT_API_KEY: 'nonsense' } });
  expect(bad.code).toBe(4);
  expect(lastJson(bad.stderr).error).toMatchObject({ code: 'auth', hint: 'run `jobfit login` or set JOBFIT_API_KEY' });
});

it('help exit-codes documents the JSON line and every code', async () => {
  const r = await runCli(['help', 'exit-codes']);
  for (const code of ['not_found', 'usage', 'auth', 'mode_mismatch', 'rate_limited', 'service_unavailable', 'partial']) expect(r.stdout).toContain(`  ${code} `);
  expect(r.stdout).toContain('{"error":{"code":');
});

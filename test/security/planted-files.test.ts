/**
 * Issue 26, "safe with a stranger's data, round two": each numbered finding
 * with the probe's payload (findings 4 and 6's CSV and workbook bounds are
 * tested where they were fixed). The ownership tests run as root with a
 * second user (`nobody`), as CI does; without root they are skipped, saying why.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeJson, safeLine, safeText } from '../../src/format/sanitize.js';
import { createListWriter } from '../../src/format/output.js';
import { startStubServer } from '../../src/stub/index.js';
import { type BuiltCli, buildCli } from '../e2e/built.js';
import { runCli } from '../helpers/cli.js';
import { type FaultServer, send, startFaultServer } from '../helpers/fault-server.js';
import { NOBODY, asRoot, plantAsOtherUser } from '../helpers/other-user.js';
import { memoryIO } from '../helpers/io.js';
import { DANA } from '../helpers/seeded.js';
import { type StartedStub, startStub } from '../helpers/stub.js';


const ESC = '\x1b';
const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);

let tmp: string;
let stub: StartedStub;
let env: Record<string, string>;
let cli: BuiltCli;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'jobfit-planted-'));
  stub = await startStub({ dataDir: join(tmp, 'stub') });
  env = { JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.keys[0].live_key };
  cli = buildCli();
}, 120_000);
afterAll(async () => {
  await stub?.stop();
  cli?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** A fresh folder in the test's tmp. */
let n = 0;
const folder = (mode = 0o700) => {
  const d = join(tmp, `d${++n}`);
  mkdirSync(d);
  chmodSync(d, mode);
  return d;
};
const csv = (dir: string, rows = 2) => {
  const p = join(dir, 'people.csv');
  const lines = ['First Name,Last Name,Email'];
  for (let i = 0; i < rows; i++) lines.push(`Ro${n},Two${i},round.two.${n}.${i}.${Date.now()}@example.com`);
  writeFileSync(p, `${lines.join('\n')}\n`);
  return p;
};
const invite = (args: string[]) => runCli(['invite', '--created-by', DANA, ...args], { env });

describe('1. exports never replace special files', () => {
  for (const kind of ['symlink', 'fifo', 'device'] as const) {
    asRoot(`--out X where X is a ${kind}: exit 2, X left as it was, nothing behind`, async () => {
      const d = folder();
      const x = join(d, 'X');
      const target = join(d, 'target.txt');
      if (kind === 'symlink') {
        writeFileSync(target, 'keep me\n');
        symlinkSync(target, x);
      } else if (kind === 'fifo') {
        expect(spawnSync('mkfifo', [x]).status).toBe(0);
      } else {
        // Our own /dev/null in our own folder: the probe's `--out /dev/null` without touching the system's.
        expect(spawnSync('mknod', [x, 'c', '1', '3']).status).toBe(0);
      }
      const before = lstatSync(x);
      const r = await runCli(['test-takers', 'list', '--all', '-o', 'csv', '--out', x], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/--out .*X is (a symbolic link|a FIFO|a device)/);
      const after = lstatSync(x);
      expect([after.ino, after.mode]).toEqual([before.ino, before.mode]);
      if (kind === 'symlink') expect(readFileSync(target, 'utf8')).toBe('keep me\n');
      expect(readdirSync(d).filter((f) => f.startsWith('.'))).toEqual([]);
    });
  }

  it('--errors FILE: a link is refused (exit 2), a new file is 0600', async () => {
    const d = folder();
    const target = join(d, 'target.txt');
    writeFileSync(target, 'keep me\n');
    const link = join(d, 'errors.ndjson');
    symlinkSync(target, link);
    const r = await runCli(['scorecard', '999999901', '--sp', 'sales-rep', '-o', 'csv', '--errors', link], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--errors .*errors\.ndjson is a symbolic link/);
    expect(readFileSync(target, 'utf8')).toBe('keep me\n');
    const file = join(d, 'new-errors.ndjson');
    const ok = await runCli(['scorecard', '999999901', '--sp', 'sales-rep', '-o', 'csv', '--errors', file], { env });
    expect(ok.code, ok.stderr).toBe(3);
    expect(mode(file)).toBe('600');
    expect(readFileSync(file, 'utf8')).toContain('999999901');
  });
});

describe('2. planted files in a shared folder never receive people\'s data', () => {
  asRoot('temp files planted under the old fixed names stay empty and another user\'s; results are root\'s 0600', async () => {
    const s = folder(0o1777);
    const input = csv(s);
    const out = join(s, 'res.csv');
    const planted = [join(s, '.res.csv.jobfit-tmp'), join(s, '.res.csv.jobfit-rows')];
    for (const p of planted) {
      writeFileSync(p, '');
      chmodSync(p, 0o666);
      plantAsOtherUser(p);
    }
    const r = await invite(['--csv', input, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    for (const p of planted) expect([p, readFileSync(p, 'utf8')]).toEqual([p, '']);
    expect(statSync(out).uid).toBe(0);
    expect(mode(out)).toBe('600');
    expect(readFileSync(out, 'utf8')).toMatch(/created/);
  });

  asRoot('a journal planted by another user: refused (exit 2), nothing sent, nothing written into it', async () => {
    const s = folder(0o1777);
    const input = csv(s);
    const out = join(s, 'res.csv');
    const journal = `${out}.journal.ndjson`;
    writeFileSync(journal, '');
    plantAsOtherUser(journal);
    const r = await invite(['--csv', input, '--out', out]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/journal .*belongs to another user/);
    expect(readFileSync(journal, 'utf8')).toBe('');
    expect(existsSync(out)).toBe(false);
  });

  asRoot('a results file of another user: refused (exit 2) leaving nothing behind, no journal either; the next run is not blocked', async () => {
    const s = folder(0o1777);
    const input = csv(s);
    const out = join(s, 'res.csv');
    writeFileSync(out, 'theirs\n');
    plantAsOtherUser(out);
    const r = await invite(['--csv', input, '--out', out]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/results file .*res\.csv belongs to another user/);
    expect(readFileSync(out, 'utf8')).toBe('theirs\n');
    expect(readdirSync(s).sort()).toEqual(['people.csv', 'res.csv']);
    const other = join(s, 'mine.csv');
    const again = await invite(['--csv', input, '--out', other]);
    expect(again.code, again.stderr).toBe(0);
  });
});

describe('3. a config file owned by another user is never trusted', () => {
  let catcher: FaultServer;
  let caught: string[];
  let catcherUrl: string;
  beforeAll(async () => {
    caught = [];
    catcher = await startFaultServer({ anyKey: true });
    catcher.faults.push((req, res) => {
      caught.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      return send(res, 200, {});
    });
    catcherUrl = `${catcher.url}/v2`;
  });
  afterAll(() => catcher.close());

  asRoot('their base_url never receives JOBFIT_API_KEY: refused with the path and the fix before any request', async () => {
    const configDir = folder();
    const file = join(configDir, 'config.json');
    writeFileSync(file, JSON.stringify({ current_profile: 'x', profiles: { x: { base_url: catcherUrl } } }));
    chmodSync(file, 0o600);
    plantAsOtherUser(file);
    const r = await runCli(['teams', '-o', 'json'], { configDir, env: { JOBFIT_API_KEY: 'sk_test_abcdefabcdefabcdef1234', JOBFIT_MAX_RETRIES: '0' } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`The config file ${file} belongs to another user (uid ${NOBODY!.uid})`);
    expect(r.stderr).toMatch(/Remove it .*or set JOBFIT_CONFIG_DIR/);
    expect(caught).toEqual([]);
  });

  asRoot('`config set` as root never writes the key into their file', async () => {
    const configDir = folder();
    const file = join(configDir, 'config.json');
    const theirs = JSON.stringify({ current_profile: 'x', profiles: { x: { base_url: catcherUrl } } });
    writeFileSync(file, theirs);
    plantAsOtherUser(file);
    const r = await runCli(['config', 'set', 'test_key', 'sk_test_abcdefabcdefabcdef1234', '--profile', 'x'], { configDir });
    expect(r.code, r.stderr).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe(theirs);
  });

  it('a config others can write is refused (no longer used with a warning)', async () => {
    const configDir = folder();
    const file = join(configDir, 'config.json');
    writeFileSync(file, JSON.stringify({ current_profile: 'x', profiles: { x: { base_url: catcherUrl, test_key: 'sk_test_abcdefabcdefabcdef1234' } } }));
    chmodSync(file, 0o666);
    const r = await runCli(['teams', '-o', 'json'], { configDir, env: { JOBFIT_MAX_RETRIES: '0' } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`chmod 600 ${file}`);
    expect(caught).toEqual([]);
  });

  asRoot("the stub's data of another user is refused", async () => {
    const data = folder();
    writeFileSync(join(data, 'stub.db'), '');
    plantAsOtherUser(join(data, 'stub.db'));
    // A test of startStubServer itself (its refusal), so not through test/helpers/stub.ts.
    await expect(startStubServer({ dataDir: data, port: 0 })).rejects.toThrow(/stub's database .*belongs to another user/);
  });
});

describe('5. one sanitiser for every line for a person', () => {
  it('zero-width, U+2028/2029 and tag characters are shown escaped (terminal and JSON)', () => {
    const evil = 'a\u200bb\u200dc\u2060d\ufeffe\u2028f\u2029g\u{E0041}\u{E007F}h';
    expect(safeText(evil)).toBe('a\\u200bb\\u200dc\\u2060d\\ufeffe\\u2028f\\u2029g\\u{e0041}\\u{e007f}h');
    expect(safeLine(evil)).not.toMatch(/[\u200b-\u200d\u2028\u2029\u2060\ufeff]|\u{E0041}/u);
    const json = safeJson(JSON.stringify({ v: evil }));
    expect(json).toBe('{"v":"a\\u200bb\\u200dc\\u2060d\\ufeffe\\u2028f\\u2029g\\udb40\\udc41\\udb40\\udc7fh"}');
    expect(JSON.parse(json).v).toBe(evil);
  });

  it('"CSV columns were fixed…" names the service\'s fields sanitised', async () => {
    const m = memoryIO({});
    const w = await createListWriter({ io: m.io, globals: { output: 'csv' } as never }, { columns: [] });
    w.write({ id: 1 });
    w.write({ id: 2, [`x${ESC}]52;c;SGk=\x07${ESC}[2J\u202e`]: 1 });
    await w.end();
    expect(m.stderr()).toContain('CSV columns were fixed');
    expect(m.stderr()).not.toMatch(/[\x1b\x07\u202e]/);
  });

  it('#INCOMPLETE EXPORT quotes the service\'s error sanitised', async () => {
    // A server of our own: one page, then an error whose text drives the terminal.
    let calls = 0;
    const evil = `bad${ESC}]52;c;SGk=\x07${ESC}[2J\u202e\u2028done`;
    const srv = await startFaultServer({ anyKey: true });
    srv.faults.push((_req, res) => {
      calls++;
      if (calls === 1) {
        const data = Array.from({ length: 50 }, (_, i) => ({ object: 'test_taker', id: 1000 - i, first_name: 'A', last_name: 'B', email: `a${i}@example.com`, custom_id: null, person_id: null, created_at: '2026-01-01T00:00:00Z', team: { id: 1, display_name: 'T' }, account: { id: 1, display_name: 'A' } }));
        return send(res, 200, { mode: 'test', object: 'list', total_count: 500, has_more: true, data });
      }
      return send(res, 400, { error: evil });
    });
    try {
      const url = `${srv.url}/v2`;
      const r = await runCli(['test-takers', 'list', '--all', '-o', 'ndjson'], { env: { JOBFIT_BASE_URL: url, JOBFIT_API_KEY: 'sk_test_abcdefabcdefabcdef1234', JOBFIT_MAX_RETRIES: '0' } });
      expect(r.code, r.stderr).toBe(1);
      const last = r.stdout.trimEnd().split('\n').at(-1) ?? '';
      expect(last.startsWith('#INCOMPLETE EXPORT')).toBe(true);
      expect(last).toContain('bad\\x1b]52');
      expect(r.stdout).not.toMatch(/[\x1b\x07\u202e\u2028]/);
    } finally {
      await srv.close();
    }
  });

  it('file names in Results: and Resume with:, and commander\'s errors, reach the terminal escaped', async () => {
    const d = folder();
    const input = csv(d);
    const out = join(d, `r${ESC}]0;owned\x07\u202e.csv`);
    const r = await invite(['--csv', input, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Results: ');
    expect(r.stderr).not.toMatch(/[\x1b\x07\u202e]/);
    const unknown = cli.run([`bogus${ESC}]52;c;SGk=\x07`]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('bogus\\x1b]52');
    expect(unknown.stderr).not.toMatch(/[\x1b\x07]/);
    const badO = cli.run(['teams', '-o', `x${ESC}[2J`]);
    expect(badO.code).toBe(2);
    expect(badO.stderr).not.toMatch(/\x1b/);
  });

  it('Interrupted:/Stopped and the resume command quote a file name a shell reads back', async () => {
    const { resumeCommand } = await import('../../src/bulk/finish.js');
    const cmd = resumeCommand({ csv: 'in.csv' } as never, `/tmp/r${ESC}]0;x\x07'.csv`);
    expect(cmd).toContain("$'/tmp/r\\x1b]0;x\\x07\\'.csv'");
    const echoed = spawnSync('bash', ['-c', `printf %s ${cmd.split(' --out ')[1].split(' --resume')[0]}`], { encoding: 'utf8' });
    expect(echoed.stdout).toBe(`/tmp/r${ESC}]0;x\x07'.csv`);
  });
});

describe('6. inputs without bounds (non-regular files)', () => {
  const timed = (args: string[], extraEnv: Record<string, string> = {}) =>
    new Promise<{ code: number | null; stderr: string; ms: number }>((resolve) => {
      const started = Date.now();
      const child = spawn(process.execPath, [cli.bin, ...args], { env: { PATH: process.env.PATH ?? '', HOME: join(cli.dir, 'home'), NO_COLOR: '1', ...env, ...extraEnv }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr, ms: Date.now() - started });
      });
    });

  it('api --data @/dev/zero: refused at once (exit 2), not read forever', async () => {
    const r = await timed(['api', 'POST', '/invitations', '--data', '@/dev/zero']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/\/dev\/zero: it is a device/);
    expect(r.ms).toBeLessThan(15_000);
  });

  it('api --data @FILE over the bound: refused (exit 2)', async () => {
    const big = join(folder(), 'big.json');
    writeFileSync(big, Buffer.alloc(33 * 1024 * 1024, 0x20));
    const r = await timed(['api', 'POST', '/invitations', '--data', `@${big}`]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/larger than 32 MiB/);
  });

  it('a FIFO as webhook listen --log: refused (exit 2), no hang', async () => {
    const fifo = join(folder(), 'events.ndjson');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const r = await timed(['webhook', 'listen', '--port', '0', '--log', fifo]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/log file .* is a FIFO/);
  });

  it('a FIFO at a lock path: refused (exit 2), no hang', async () => {
    const d = folder();
    const input = csv(d);
    const out = join(d, 'res.csv');
    expect(spawnSync('mkfifo', [`${out}.lock`]).status).toBe(0);
    const r = await timed(['invite', '--csv', input, '--created-by', DANA, '--out', out]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/lock file .* is not a regular file/);
  });
});

describe('7. the stub\'s v1 route refuses a web page\'s POST', () => {
  it('a text/plain POST with the seed key in the query is refused (415), nothing created', async () => {
    const q = `auth=${stub.keys[0].live_key}&sid=${stub.keys[0].account_id}`;
    const body = JSON.stringify({ teamId: 12, firstName: 'Web', lastName: 'Page', sentToEmail: `web.page.${Date.now()}@example.com`, sendViaEmail: true, assignPersonality: true });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const r = await fetch(`${stub.url.replace(/\/v2$/, '')}/v1/invitations/create?${q}`, { method: 'POST', headers: { 'content-type': type }, body });
      expect([type, r.status]).toEqual([type, 415]);
    }
    const ok = await fetch(`${stub.url.replace(/\/v2$/, '')}/v1/invitations/create?${q}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(ok.status).toBe(200);
  });
});

describe('8. custom_id is counted one way', () => {
  it('an id of 30 emoji (60 UTF-16 units) is stored and can be searched', async () => {
    const id = '😀'.repeat(30);
    const headers = { authorization: `Bearer ${stub.keys[0].live_key}`, 'content-type': 'application/json' };
    const created = await fetch(`${stub.url}/invitations`, { method: 'POST', headers, body: JSON.stringify({ first_name: 'Emo', last_name: 'Ji', email: `emo.${Date.now()}@example.com`, created_by_user_email: DANA, custom_id: id }) });
    expect(created.status).toBe(201);
    const found = await fetch(`${stub.url}/invitations?custom_id=${encodeURIComponent(id)}`, { headers });
    expect(found.status).toBe(200);
    expect(((await found.json()) as { data: Array<{ custom_id: string }> }).data.map((x) => x.custom_id)).toContain(id);
    const tooLong = await fetch(`${stub.url}/invitations?custom_id=${encodeURIComponent('😀'.repeat(51))}`, { headers });
    expect(tooLong.status).toBe(400);
  });
});

describe('9. the uuid advisory', () => {
  it('exceljs resolves a uuid outside GHSA-w5hq-g745-h8pq (>= 11.1.1)', () => {
    const fromExceljs = createRequire(createRequire(import.meta.url).resolve('exceljs'));
    const version = (JSON.parse(readFileSync(fromExceljs.resolve('uuid/package.json'), 'utf8')) as { version: string }).version;
    const [major, minor, patch] = version.split('.').map(Number);
    expect(major * 1e6 + minor * 1e3 + patch, version).toBeGreaterThanOrEqual(11_001_001);
    expect(typeof (fromExceljs('uuid') as { v4: () => string }).v4()).toBe('string');
  });
});

/**
 * What every list takes, through the CLI against the stub:
 * - `--fields` names come from the schema of the command's output, not from
 *   the rows returned: `--fields first_name` on an empty match exits 0, and a
 *   misspelt name is refused (exit 2) before any request;
 * - `--out FILE` works on every list, with or without `--all`;
 * - `--ids-from` reads each id once, in first-seen order, and says how many
 *   repeats it skipped: the long job-fit CSV (15 lines a person) makes one
 *   report per person.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { useBulkStub } from '../bulk/harness.js';
import { runCli } from '../helpers/cli.js';

const { h } = useBulkStub('jobfit-list-options-');
const cli = (args: string[]) => runCli(args, { env: h.env });
const NOMATCH = 'nobody-matches-this-zz';

describe('--fields: a fixed list per command', () => {
  it('--fields first_name on an empty match exits 0, in every format', async () => {
    const json = await cli(['invitations', 'list', '--email', NOMATCH, '--fields', 'first_name', '-o', 'json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ object: 'list', total_count: 0, data: [] });
    const csv = await cli(['invitations', 'list', '--email', NOMATCH, '--fields', 'first_name,team.display_name', '-o', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe('first_name,team.display_name\n');
    for (const args of [
      ['test-takers', 'list', '--email', NOMATCH, '--fields', 'email', '-o', 'ndjson'],
      ['invitations', 'list', '--all', '--email', NOMATCH, '--fields', 'first_name', '-o', 'json'],
      ['test-takers', 'list', '--all', '--email', NOMATCH, '--fields', 'first_name', '-o', 'csv'],
    ]) {
      const r = await cli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
  });

  it('the same names work when rows match, and a name outside the schema is refused (exit 2) before any request', async () => {
    const r = await cli(['invitations', 'list', '--fields', 'first_name,team.display_name', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const data = JSON.parse(r.stdout).data as Array<Record<string, unknown>>;
    expect(data.length).toBeGreaterThan(0);
    expect(Object.keys(data[0])).toEqual(['first_name', 'team']);
    // The unknown name is told at once: the base URL points nowhere, so a request would fail differently.
    const nowhere = { ...h.env, JOBFIT_BASE_URL: 'http://127.0.0.1:9/v2' };
    for (const args of [
      ['invitations', 'list', '--email', NOMATCH, '--fields', 'frist_name'],
      ['teams', '--fields', 'nmae'],
      ['profiles', 'list', '--all', '--fields', 'score'],
      ['invitations', 'get', '1', '--fields', 'status'],
    ]) {
      const bad = await runCli([...args, '-o', 'json'], { env: nowhere });
      expect(bad.code, `${args.join(' ')}: ${bad.stderr}`).toBe(2);
      expect(bad.stderr).toMatch(/Unknown field for --fields/);
      expect(bad.stderr).not.toMatch(/127\.0\.0\.1:9/);
    }
    // Exports: the CSV's columns and the API object's names; an unknown one before any request.
    for (const args of [
      ['scorecard', '2001', '--sp', 'x', '--fields', 'think-rread'],
      ['job-fit', '--all', '--fields', 'rnak'],
    ]) {
      const bad = await runCli([...args, '-o', 'csv'], { env: nowhere });
      expect(bad.code, `${args.join(' ')}: ${bad.stderr}`).toBe(2);
      expect(bad.stderr).toMatch(/Unknown field for --fields/);
    }
    const long = await cli(['job-fit', '--all', '--fields', 'test_taker_id,rank', '-o', 'csv']);
    expect(long.code, long.stderr).toBe(0);
    expect(long.stdout.split('\n')[0]).toBe('test_taker_id,rank');
    const objects = await cli(['job-fit', '--all', '--fields', 'test_taker_id,riasec_profile', '-o', 'ndjson']);
    expect(objects.code, objects.stderr).toBe(0);
    expect(Object.keys(JSON.parse(objects.stdout.split('\n')[0]))).toEqual(['test_taker_id', 'riasec_profile']);
    // Fields of the schema the stub's rows may lack are still names (a strict server leaves them out).
    const ok = await cli(['test-takers', 'list', '--fields', 'id,created_at', '-o', 'json']);
    expect(ok.code, ok.stderr).toBe(0);
  });
});

describe('--out on every list', () => {
  it('one page or every match, to a file written once complete', async () => {
    const cases: Array<[string[], (text: string) => void]> = [
      [['invitations', 'list', '-o', 'csv'], (t) => expect(parse(t).length).toBeGreaterThan(1)],
      [['invitations', 'list', '--all', '-o', 'csv'], (t) => expect(parse(t).length).toBeGreaterThan(51)],
      [['test-takers', 'list'], (t) => expect(JSON.parse(t).object).toBe('list')],
      [['profiles', 'list'], (t) => expect(JSON.parse(t).data.length).toBeGreaterThan(0)],
      [['teams', '-o', 'csv'], (t) => expect(t.split('\n')[0]).toContain('display_name')],
      [['users'], (t) => expect(JSON.parse(t).data.length).toBeGreaterThan(0)],
      [['templates'], (t) => expect(JSON.parse(t).data.length).toBeGreaterThan(0)],
      [['assessments'], (t) => expect(JSON.parse(t).data.length).toBeGreaterThan(0)],
      [['score-profiles'], (t) => expect(JSON.parse(t).data.length).toBeGreaterThan(0)],
    ];
    for (const [i, [args, check]] of cases.entries()) {
      const file = join(h.dir, `out-${i}.txt`);
      const r = await cli([...args, '--out', file]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toBe('');
      check(readFileSync(file, 'utf8'));
    }
  });

  it('a list that fails leaves FILE as it was', async () => {
    const file = join(h.dir, 'kept.json');
    writeFileSync(file, 'mine\n');
    const r = await runCli(['teams', '--out', file], { env: { ...h.env, JOBFIT_BASE_URL: 'http://127.0.0.1:9/v2', JOBFIT_MAX_RETRIES: '0' } });
    expect(r.code).not.toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('mine\n');
    expect(readdirSync(h.dir).filter((f) => f.startsWith('.kept.json.'))).toEqual([]);
  });
});

describe('--ids-from reads each id once', () => {
  it('the long job-fit CSV (15 lines a person) makes one report per person, in first-seen order', async () => {
    const long = join(h.dir, 'job-fit-long.csv');
    const all = await cli(['job-fit', '--all', '-o', 'csv', '--out', long]);
    expect(all.code, all.stderr).toBe(0);
    const rows = parse(readFileSync(long, 'utf8'), { columns: true, bom: true }) as Array<{ test_taker_id: string }>;
    const people = [...new Set(rows.map((r) => Number(r.test_taker_id)))];
    expect(people.length).toBeGreaterThan(1);
    expect(rows.length).toBe(people.length * 15);
    const r = await cli(['job-fit', '--ids-from', long, '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const reports = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { test_taker_id: number });
    expect(reports.map((x) => x.test_taker_id)).toEqual(people);
    expect(r.stderr).toContain(`Read ${people.length} test taker ids from ${long}; skipped ${rows.length - people.length} repeats`);
  });

  it('ids repeated in a plain list are read once, in the order first seen', async () => {
    const ids = (JSON.parse((await cli(['test-takers', 'list', '-o', 'json'])).stdout).data as Array<{ id: number }>).slice(0, 3).map((t) => t.id);
    const list = join(h.dir, 'ids.txt');
    writeFileSync(list, [ids[1], ids[0], ids[1], ids[2], ids[0]].join('\n'));
    const r = await cli(['scorecard', '--ids-from', list, '--sp', JSON.parse((await cli(['score-profiles', '-o', 'json'])).stdout).data[0].short_name, '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).test_taker_id)).toEqual([ids[1], ids[0], ids[2]]);
    expect(r.stderr).toContain('skipped 2 repeats');
  });
});

import { describe, expect, it } from 'vitest';
import { memoryIO } from '../helpers/io.js';
import report from '../format/job-fit-report.json' with { type: 'json' };

describe('job-fit long form', () => {
  it('one row per top job family, in rank order, as CSV with a fixed header', async () => {
    const { jobFitLongRows, JOB_FIT_CSV_COLUMNS } = await import('../../src/export/job-fit-rows.js');
    const { createListWriter } = await import('../../src/format/output.js');
    const { parse } = await import('csv-parse/sync');
    const m = memoryIO({});
    const w = await createListWriter({ io: m.io, globals: { output: 'csv', color: true, quiet: false, verbose: false } }, { columns: [], csvColumns: [...JOB_FIT_CSV_COLUMNS] });
    for (const row of jobFitLongRows(report)) w.write(row);
    w.end();
    const rows = parse(m.stdout(), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(15);
    expect(Object.keys(rows[0])).toEqual([...JOB_FIT_CSV_COLUMNS]);
    expect(rows[0]).toMatchObject({ test_taker_id: '42', rank: '1', job_family_name: report.top_fit_occupations[0].job_family_name });
  });
});

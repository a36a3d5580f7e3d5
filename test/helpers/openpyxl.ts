/**
 * An independent program for workbooks: Debian's python3-openpyxl (`.ci/run`
 * installs it when absent). Tests write their input workbooks with it and read
 * ours back with it, so neither side is checked by our own code.
 */
import { execFileSync } from 'node:child_process';

function find(): string | undefined {
  for (const py of ['/usr/bin/python3', 'python3']) {
    try {
      execFileSync(py, ['-c', 'import openpyxl'], { stdio: 'ignore' });
      return py;
    } catch {
      // next
    }
  }
  return undefined;
}

/** The Python that has openpyxl, or undefined (the tests that need it are then skipped). */
export const PYTHON = find();

/** Runs a Python script (openpyxl imported as `openpyxl`); its stdout. */
export function py(script: string, args: string[] = []): string {
  return execFileSync(PYTHON!, ['-c', `import sys, json, datetime, openpyxl\n${script}`, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

export interface ReadCell {
  v: unknown;
  /** openpyxl's data type: s text, n number, d date, b boolean, f formula, e error. */
  t: string;
  fmt: string;
  bold: boolean;
  /** The font's name (null when the cell's font has none). */
  font: string | null;
  link: string | null;
}

export interface ReadSheet {
  title: string;
  freeze: string | null;
  filter: string | null;
  /** The sheet's `_xlnm._FilterDatabase` defined name, as written in xl/workbook.xml (null: none). */
  filterName: string | null;
  widths: Record<string, number | null>;
  rows: ReadCell[][];
}

/** Every sheet of a workbook as openpyxl reads it (values as JSON; dates as ISO text). */
export function readWorkbook(path: string, maxRows = 1_000_000): ReadSheet[] {
  const out = py(
    `
import zipfile, re, html
book = zipfile.ZipFile(sys.argv[1]).read("xl/workbook.xml").decode()
filters = {}
for attrs, ref in re.findall(r'<definedName([^>]*)>([^<]*)</definedName>', book):
    if 'name="_xlnm._FilterDatabase"' in attrs:
        m = re.search(r'localSheetId="(\\d+)"', attrs)
        filters[int(m.group(1)) if m else None] = html.unescape(ref)
wb = openpyxl.load_workbook(sys.argv[1], read_only=False)
res = []
for i, ws in enumerate(wb.worksheets):
    rows = []
    for row in ws.iter_rows(max_row=min(ws.max_row, int(sys.argv[2]))):
        cells = []
        for c in row:
            v = c.value
            if isinstance(v, (datetime.datetime, datetime.date)): v = v.isoformat()
            cells.append({"v": v, "t": c.data_type, "fmt": c.number_format, "bold": bool(c.font and c.font.b), "font": c.font.name if c.font else None, "link": c.hyperlink.target if c.hyperlink else None})
        rows.append(cells)
    widths = {k: d.width for k, d in ws.column_dimensions.items()}
    res.append({"title": ws.title, "freeze": ws.freeze_panes, "filter": ws.auto_filter.ref, "filterName": filters.get(i), "widths": widths, "rows": rows})
print(json.dumps(res))
`,
    [path, String(maxRows)],
  );
  return JSON.parse(out) as ReadSheet[];
}

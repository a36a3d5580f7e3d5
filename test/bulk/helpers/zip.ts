/**
 * A minimal zip writer for hostile workbooks: parts given as raw deflate
 * bytes (or stored), with the uncompressed size they claim. CRCs are zero
 * (the reader under test never checks them; Excel would).
 */
import { deflateRawSync, constants } from 'node:zlib';

export interface RawPart {
  name: string;
  /** Deflated bytes (method 8), or stored bytes (method 0). */
  data: Buffer;
  method: 0 | 8;
  /** The uncompressed size the zip claims. */
  size: number;
}

export function zip(parts: RawPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(p.method, 8);
    local.writeUInt32LE(0, 14);
    local.writeUInt32LE(p.data.length, 18);
    local.writeUInt32LE(p.size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, p.data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(p.method, 10);
    central.writeUInt32LE(0, 16);
    central.writeUInt32LE(p.data.length, 20);
    central.writeUInt32LE(p.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + p.data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A part stored as it is. */
export const stored = (name: string, text: string): RawPart => {
  const data = Buffer.from(text, 'utf8');
  return { name, data, method: 0, size: data.length };
};

/**
 * A deflated part of `head`, then `body` repeated `times`, then `tail`, built
 * without holding the whole: `body` is deflated once behind a full flush (no
 * reference back) and its bytes repeated, as a zip bomb is made.
 */
export function repeated(name: string, head: string, body: string, times: number, tail: string): RawPart {
  const flush = { finishFlush: constants.Z_FULL_FLUSH };
  const h = deflateRawSync(Buffer.from(head), flush);
  const b = deflateRawSync(Buffer.from(body), flush);
  const t = deflateRawSync(Buffer.from(tail));
  const data = Buffer.concat([h, ...Array<Buffer>(times).fill(b), t]);
  const size = Buffer.byteLength(head) + Buffer.byteLength(body) * times + Buffer.byteLength(tail);
  return { name, data, method: 8, size: Math.min(size, 0xffffffff) };
}

const CT = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const SHEET_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

/** The parts of a one-sheet workbook around a given sheet part (and optional styles). */
export function workbookParts(sheet: RawPart, styles?: RawPart): RawPart[] {
  return [
    stored('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    stored('_rels/.rels', `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${CT}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    stored('xl/workbook.xml', `<?xml version="1.0"?><workbook xmlns="${SHEET_NS}" xmlns:r="${CT}"><sheets><sheet name="People" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    stored(
      'xl/_rels/workbook.xml.rels',
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${CT}/worksheet" Target="worksheets/sheet1.xml"/>${styles ? `<Relationship Id="rId2" Type="${CT}/styles" Target="styles.xml"/>` : ''}</Relationships>`,
    ),
    ...(styles ? [styles] : []),
    sheet,
  ];
}

export const SHEET_HEAD = `<?xml version="1.0"?><worksheet xmlns="${SHEET_NS}"><sheetData>`;
export const SHEET_TAIL = '</sheetData></worksheet>';

/** A row of inline strings. */
export function row(n: number, cells: string[]): string {
  return `<row r="${n}">${cells.map((c, i) => `<c r="${String.fromCharCode(65 + i)}${n}" t="inlineStr"><is><t>${c}</t></is></c>`).join('')}</row>`;
}

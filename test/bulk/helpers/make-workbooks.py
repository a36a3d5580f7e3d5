# Input workbooks for test/bulk/xlsx.test.ts, written by openpyxl (not by us).
# Usage: python3 make-workbooks.py DIR
import sys, os, re, zipfile, datetime, openpyxl
from openpyxl.styles import Font
d = sys.argv[1]

def patch(path, part, subs):
    """Rewrites one part of a workbook (cached formula values openpyxl cannot write)."""
    tmp = path + '.tmp'
    with zipfile.ZipFile(path) as zin, zipfile.ZipFile(tmp, 'w', zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == part:
                text = data.decode('utf-8')
                for pat, rep in subs:
                    text, n = re.subn(pat, rep, text, flags=re.S)
                    assert n == 1, (pat, n)
                data = text.encode('utf-8')
            zout.writestr(item, data)
    os.replace(tmp, path)

wb = openpyxl.Workbook()
ws = wb.active
ws.title = 'Candidates'
ws.append(['Candidates for the spring intake'])
ws.merge_cells('A1:F1')
ws.append(['First Name', 'Last Name', 'Email', 'Phone', 'Team', 'Custom ID', 'Start', 'Score', 'Notes', None])
ws.merge_cells('I2:J2')
ws.append(['Ana', 'Diaz', 'ana.xl@example.com', 14155550100, 'Retail Stores', 4711, datetime.date(2024, 3, 14), 1234.5, 'first', 'beside'])
ws['D3'].number_format = '"+"0'
ws['G3'].number_format = 'd/m/yyyy'
ws['H3'].number_format = '#,##0.00'
ws.append(['Bo', 'Li', 'bo.xl@example.com', 447911123456, None, 123, datetime.datetime(2024, 3, 14, 9, 30), 0.25, '-5'])
ws['D4'].number_format = '+0'
ws['F4'].number_format = '00000'
ws['G4'].number_format = 'yyyy-mm-dd hh:mm'
ws['H4'].number_format = '0%'
ws.append(['Cy', 'Ng', 'cy.xl@example.com', '+1 415 555 0102', None, 12345678901234, None, True, '@home'])
ws.merge_cells('E3:E5')
ws.append([])
ws.append(['Di', 'Ho', 'di.xl@example.com'])
ws.row_dimensions[7].hidden = True
ws.append(['Ed', 'Fu', '=LOWER("ED.XL@EXAMPLE.COM")', None, None, None, None, '=2*21'])
# Formatted but empty cells far right and far down: not columns, not rows.
ws.cell(row=2, column=14).font = Font(bold=True)
ws.cell(row=30, column=3).font = Font(bold=True)
ar = wb.create_sheet('Archive')
ar.append(['First Name', 'Last Name', 'Email'])
ar.append(['Old', 'Timer', 'old.xl@example.com'])
wb.save(f'{d}/cells.xlsx')
patch(f'{d}/cells.xlsx', 'xl/worksheets/sheet1.xml', [
    (r'<c r="C8"[^>]*>.*?</c>', '<c r="C8" t="str"><f>LOWER(&quot;ED.XL@EXAMPLE.COM&quot;)</f><v>ed.xl@example.com</v></c>'),
    (r'<c r="H8"[^>]*>.*?</c>', '<c r="H8"><f>2*21</f><v>42</v></c>'),
])

# The first sheet empty, the people on the second.
wb = openpyxl.Workbook()
wb.active.title = 'Notes'
s2 = wb.create_sheet('People')
s2.append(['First Name', 'Last Name', 'Email'])
s2.append(['Fay', 'Gu', 'fay.xl@example.com'])
wb.save(f'{d}/second-sheet.xlsx')

# 10,000 rows, written as a stream.
wb = openpyxl.Workbook(write_only=True)
ws = wb.create_sheet('People')
ws.append(['First Name', 'Last Name', 'Email', 'Phone'])
for i in range(10000):
    # The last row's email is invalid: it goes to --errors with its cells as read.
    ws.append([f'First{i}', f'Last{i}', f'person{i}.xl@example.com' if i < 9999 else 'not-an-email', 14155550000 + i])
wb.save(f'{d}/ten-thousand.xlsx')

# OpenDocument: a zip whose first entry is an uncompressed mimetype.
with zipfile.ZipFile(f'{d}/sheet.ods', 'w') as z:
    z.writestr(zipfile.ZipInfo('mimetype'), 'application/vnd.oasis.opendocument.spreadsheet')
    z.writestr('content.xml', '<office:document-content/>')

# A password-protected workbook is an OLE compound file holding EncryptionInfo and EncryptedPackage.
def cfb(names):
    header = bytearray(512)
    header[0:8] = bytes.fromhex('d0cf11e0a1b11ae1')
    header[0x18:0x1a] = (0x3e).to_bytes(2, 'little')
    header[0x1a:0x1c] = (3).to_bytes(2, 'little')
    header[0x1c:0x1e] = (0xfffe).to_bytes(2, 'little')
    header[0x1e:0x20] = (9).to_bytes(2, 'little')
    header[0x20:0x22] = (6).to_bytes(2, 'little')
    header[0x30:0x34] = (0).to_bytes(4, 'little')
    sector = bytearray(512)
    for i, name in enumerate(names):
        raw = name.encode('utf-16-le') + b'\0\0'
        sector[i * 128:i * 128 + len(raw)] = raw
        sector[i * 128 + 64:i * 128 + 66] = len(raw).to_bytes(2, 'little')
    return bytes(header + sector)
open(f'{d}/protected.xlsx', 'wb').write(cfb(['Root Entry', 'EncryptionInfo', 'EncryptedPackage', '\x06DataSpaces']))
open(f'{d}/old.xls', 'wb').write(cfb(['Root Entry', 'Workbook', '\x05SummaryInformation']))

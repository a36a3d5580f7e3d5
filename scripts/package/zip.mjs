// A .zip of one file (the Windows executable), deflated by node's zlib. The
// archive libraries on the registry deflate in JavaScript (a minute for
// 110 MB) or bring dozens of packages; one entry needs only the three records
// of the format (PKWARE's APPNOTE.TXT 4.3): local header, central directory
// entry, end of central directory. Zip64 is not needed below 4 GiB.
import { crc32, deflateRawSync } from 'node:zlib';

/** DOS date and time of a Unix time (seconds), as the format stores them. */
function dosTime(seconds) {
  const d = new Date(Math.max(seconds, 315532800) * 1000); // 1980-01-01: the format's epoch
  const time = (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1);
  const date = ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate();
  return { time, date };
}

export function zipOneFile(name, bytes, mtimeSeconds) {
  const data = deflateRawSync(bytes, { level: 9 });
  if (data.length >= 0xffffffff || bytes.length >= 0xffffffff) throw new Error(`${name}: too large for a zip without Zip64`);
  const fileName = Buffer.from(name, 'utf8');
  const { time, date } = dosTime(mtimeSeconds);
  const crc = crc32(bytes);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
  local.writeUInt16LE(0x0800, 6); // flags: the name is UTF-8
  local.writeUInt16LE(8, 8); // deflate
  local.writeUInt16LE(time, 10);
  local.writeUInt16LE(date, 12);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(bytes.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, 2.0 (so the mode below is read)
  local.copy(central, 6, 4, 30); // version needed .. name length: as in the local header
  central.writeUInt32LE((0o100755 << 16) >>> 0, 38); // external attributes: a regular file, rwxr-xr-x
  central.writeUInt32LE(0, 42); // the local header's offset
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(local.length + fileName.length + data.length, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}

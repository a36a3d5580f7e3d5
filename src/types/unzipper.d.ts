// The part of unzipper 0.10 the workbook reader uses (the package ships no types).
declare module 'unzipper' {
  import type { Readable } from 'node:stream';
  export interface Entry {
    path: string;
    uncompressedSize: number;
    compressedSize: number;
    compressionMethod: number;
    offsetToLocalFileHeader: number;
    stream(): Readable;
  }
  export const Open: { file(path: string): Promise<{ files: Entry[] }> };
  const unzipper: { Open: typeof Open };
  export default unzipper;
}

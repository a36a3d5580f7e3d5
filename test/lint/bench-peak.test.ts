/**
 * The benches' peak memory is the measured process's own (bench/peak-rss.cjs):
 * a child started from a parent that holds a lot must not report the
 * parent's size. With getrusage's ru_maxrss it did (Linux keeps the peak of
 * the forked copy of the parent across exec), and every peak of
 * bench/scale.mjs read the bench's own size once that grew past the command's
 * (issue 47).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MB = 1024 * 1024;

describe.runIf(process.platform === 'linux')("the benches' peak RSS", () => {
  it.each(['bench/invite/maxrss.cjs', 'bench/export/usage.cjs'])('%s reports the child, not a large parent', (preload) => {
    // 192 MB written in this process (the parent), so its pages are resident when it forks.
    const ballast = Buffer.alloc(192 * MB, 7);
    expect(process.memoryUsage().rss).toBeGreaterThan(192 * MB);
    const r = spawnSync(process.execPath, ['--require', `${ROOT}${preload}`, '-e', ''], { encoding: 'utf8' });
    const kb = Number(/MAXRSS_KB=(\d+)/.exec(r.stderr)?.[1]);
    expect(ballast[ballast.length - 1]).toBe(7);
    // An empty Node is some tens of MB; the parent is over 192.
    expect(kb / 1024).toBeGreaterThan(10);
    expect(kb / 1024).toBeLessThan(120);
  });
});

/**
 * `--web` and `--open`: a URL (or a file we wrote) in the person's browser, as
 * `gh browse` and `stripe open` do. The opener is `JOBFIT_BROWSER` or
 * `BROWSER` when set, else the platform's own: `open` on macOS, `explorer.exe`
 * on Windows (what `start` runs, without cmd.exe reading `&` and `%` in a URL),
 * `xdg-open` elsewhere (only with a display). Off a terminal, or with no
 * opener, the URL is printed on stdout instead, for a script or a person to
 * use. Nothing waits for the browser: the opener is started detached.
 */
import { spawn } from 'node:child_process';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Session } from '../../core/session.js';
import { safeLine } from '../../format/sanitize.js';

type Env = Record<string, string | undefined>;

/** The command and its leading arguments that open a URL here; undefined when there is none to use. */
export function openerOf(platform: NodeJS.Platform, env: Env): { command: string; args: string[] } | undefined {
  const chosen = env.JOBFIT_BROWSER || env.BROWSER;
  if (chosen) return { command: chosen, args: [] };
  if (platform === 'darwin') return { command: 'open', args: [] };
  if (platform === 'win32') return { command: 'explorer.exe', args: [] };
  // xdg-open without a display would start a text browser in our terminal, or fail.
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return { command: 'xdg-open', args: [] };
}

/** A URL as given, or a file path as a file:// URL. */
export function urlOf(target: string): string {
  if (/^https?:\/\//i.test(target) || target.startsWith('file://')) return target;
  return pathToFileURL(isAbsolute(target) ? target : resolve(target)).href;
}

/** Starts the opener; resolves true once it runs, false when it cannot be started. */
function launch(command: string, args: string[]): Promise<boolean> {
  return new Promise((done) => {
    try {
      const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsHide: true });
      child.once('error', () => done(false));
      child.once('spawn', () => {
        child.unref();
        done(true);
      });
    } catch {
      done(false);
    }
  });
}

/**
 * Opens `target` (a URL or a file) for a person; `what` names it in the
 * sentence ("the scorecard"). Off a terminal or without an opener: the URL
 * on stdout, and why on stderr.
 */
export async function openInBrowser(ctx: Session, target: string, what: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  const url = urlOf(target);
  // Only a URL of our making goes to an opener: never an option, a command or a shell word.
  if (!/^(https?|file):\/\/\S+$/i.test(url)) {
    ctx.io.stdout.write(`${safeLine(url)}\n`);
    ctx.warn(`${what} has no web address to open.`);
    return;
  }
  const opener = ctx.io.stdoutIsTTY ? openerOf(platform, ctx.io.env) : undefined;
  if (opener && (await launch(opener.command, [...opener.args, url]))) {
    ctx.info(`Opening ${what} in your browser: ${safeLine(url)}`);
    return;
  }
  ctx.io.stdout.write(`${safeLine(url)}\n`);
  if (!ctx.io.stdoutIsTTY) return;
  ctx.info(opener ? `Could not start ${safeLine(opener.command)}; open ${what} at the address above.` : `No browser to open ${what} with here (no display; set BROWSER to choose one); its address is above.`);
}

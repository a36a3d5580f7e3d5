import type { Command } from 'commander';
import type { WireDeps as CommandDeps } from '../kit/wire.js';

const LISTEN_HELP = `
Prints one line per event: time, type, event id, the resource it is about.
With -o json or -o ndjson, prints the events themselves on stdout.
The listening URL is printed first, on stderr.

Against the local stub (the embedded one, a \`jobfit stub serve\` on this machine
that the profile or JOBFIT_BASE_URL points at, or --data DIR), the account's
webhook endpoint points at this listener and delivery is switched on (for the
account and, unless --only-enabled-teams, for every team) while it runs; the
previous settings come back when it stops. Failed deliveries are retried while
it runs.

Each event is shown once, even when delivered twice (the last 10,000 ids are
remembered). Only JSON deliveries for a loopback Host (localhost, 127.0.0.1,
[::1]) are accepted: a web page's request (an Origin header), another Host
(DNS rebinding), another content type, a malformed event id or type get a 4xx,
bodies over 1 MB get 413; none is shown or forwarded, and the first of each
kind is noted on stderr. Behind a tunnel, name its host with --allow-host.
Forwarding never follows the app's redirects.

Deliveries from the local stub are signed: a jobfit-signature header
"t=<unix seconds>,v1=<hex HMAC-SHA256 of '<t>.<body>'>" with the secret of the
account's endpoint (shown at start, by --print-secret and by \`jobfit stub
webhooks\`). Forwarded events keep the header and the body byte for byte, so
your app checks them as it would the sender's (\`jobfit webhook verify\`). How
the real service signs is not in its reference.

Examples:
  $ jobfit webhook listen
  $ jobfit webhook listen --events invitation.accepted,test_taker.created
  $ jobfit webhook listen --forward-to http://localhost:3000/webhooks --log events.ndjson
  $ jobfit webhook listen -o ndjson | jq .type
  $ jobfit webhook listen --sync results.sqlite
  $ jobfit webhook listen --print-secret`;

const VERIFY_HELP = `
Checks a delivery as your app should: the HMAC-SHA256 of "<t>.<raw body>"
with the signing secret must equal the v1 signature, and t must be within
--tolerance seconds of now (default 300; 0 turns the check off). The body must
be the bytes received: parsed and serialised again, it no longer matches.
The secret comes from --secret or JOBFIT_WEBHOOK_SECRET.

This is the local stub's scheme; how the real service signs deliveries is not
in its reference.

Exit codes: 0 valid, 1 invalid (the reason on stderr), 2 usage.

Examples:
  $ jobfit webhook verify --secret whsec_... --signature "t=1767225600,v1=5f0c..." body.json
  $ JOBFIT_WEBHOOK_SECRET=$(jobfit webhook listen --print-secret) jobfit webhook verify --signature "$SIG" - < body.json`;

export function register(program: Command, deps: CommandDeps): void {
  const webhook = program
    .command('webhook')
    .description('Receive webhook events locally')
    .addHelpText('after', '\nExamples:\n  $ jobfit webhook listen\n  $ jobfit webhook listen --forward-to http://localhost:3000/webhooks\n');
  webhook
    .command('listen')
    .description('Listen for webhook events on a local port and print them')
    .option('--port <n>', 'port to listen on (0 picks a free one)', '0')
    .option('--host <host>', 'address to listen on (beyond loopback, anyone who can reach it can post)', '127.0.0.1')
    .option('--allow-host <name>', 'accept requests for this Host too, e.g. a tunnel\'s abc.ngrok.app (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--events <a,b>', 'show only these event types')
    .option('--log <file>', 'append every event received to FILE as NDJSON')
    .option('--forward-to <url>', 're-post each event to your app and print its answer')
    .option('--data <dir>', 'the local stub data directory to point at this listener')
    .option('--account <id>', 'stub account whose endpoint to set (default: the key\'s, else the first)')
    .option('--only-enabled-teams', 'do not switch on delivery for the stub\'s teams')
    .option('--no-stub', 'do not change any local stub settings')
    .option('--sync <db>', 'bring the people each event names up to date in a `jobfit sync` database')
    .option('--print-secret', "print the local stub's signing secret for deliveries and exit")
    .addHelpText('after', LISTEN_HELP)
    .action(async (opts: Record<string, unknown>, cmd: Command) => {
      const ctx = deps.context(cmd);
      const { listen } = await import('./listen.js');
      try {
        await listen(ctx, opts);
      } finally {
        await ctx.close?.();
      }
    });
  webhook
    .command('verify')
    .description('Check the signature of a webhook delivery (the local stub\'s scheme)')
    .argument('[file]', 'the raw body as received (- or nothing: stdin)')
    .requiredOption('--signature <header>', 'the jobfit-signature header: t=<unix seconds>,v1=<hex>')
    .option('--secret <whsec>', 'the signing secret (or JOBFIT_WEBHOOK_SECRET)')
    .option('--tolerance <seconds>', 'how old a signature may be (0: any)', '300')
    .addHelpText('after', VERIFY_HELP)
    .action(async (file: string | undefined, opts: Record<string, unknown>, cmd: Command) => {
      const { verify } = await import('./verify.js');
      await verify(deps.context(cmd), { file, ...(opts as { signature: string; secret?: string; tolerance: string }) });
    });
}


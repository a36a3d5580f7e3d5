#!/usr/bin/env node
// The bare node:http baselines of bench/stub/stub.mjs, each run as its own
// process (like the stub) and printing `listening http://127.0.0.1:PORT`.
//
//   node bench/stub/bare.mjs get <body-file>        answers every request with the bytes of body-file
//   node bench/stub/bare.mjs post <ddl-file> <db>   parses the JSON body, inserts one invitations row
//
// The POST baseline is the floor of the stub's write path: the same table and
// indexes (DDL copied from the stub's own database by the caller), WAL and the
// same pragmas as src/stub/store.ts, one INSERT in BEGIN IMMEDIATE, a JSON answer.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

const [mode, a, b] = process.argv.slice(2);

function listen(handler) {
  const server = createServer({ keepAliveTimeout: 5000 }, handler);
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening http://127.0.0.1:${server.address().port}\n`);
  });
  process.on('SIGINT', () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}

if (mode === 'get') {
  const body = readFileSync(a);
  listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
} else if (mode === 'post') {
  const Database = createRequire(import.meta.url)('better-sqlite3');
  const db = new Database(b);
  // The pragmas of src/stub/store.ts.
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = OFF');
  db.pragma('cache_size = -65536');
  db.pragma('wal_autocheckpoint = 8000');
  db.exec(readFileSync(a, 'utf8'));
  const insert = db.prepare(
    `INSERT INTO invitations (account_id, team_id, invited_by_user_id, created_at, accepted_at, first_name, last_name, email, email_lc,
      send_via_email, phone, send_via_sms, custom_id, person_id, invitation_template_id, ref_text, congrats_template_id,
      send_congrats_notification, target_score_profile_id, token, test_taker_id)
     VALUES (1, ?, 1, ?, NULL, ?, ?, ?, ?, 1, NULL, 0, NULL, NULL, 301, NULL, NULL, 0, NULL, ?, NULL)`,
  );
  const create = db.transaction((inv) => Number(insert.run(inv.team_id, inv.created_at, inv.first_name, inv.last_name, inv.email, inv.email.toLowerCase(), inv.token).lastInsertRowid));
  listen((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let status = 201;
      let out;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const inv = { team_id: body.team_id ?? 11, created_at: new Date().toISOString(), first_name: body.first_name, last_name: body.last_name, email: body.email, token: randomBytes(18).toString('base64url') };
        out = { object: 'invitation', id: create.immediate(inv), ...inv };
      } catch (err) {
        status = 400;
        out = { error: String(err.message) };
      }
      const text = JSON.stringify(out);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
} else {
  process.stderr.write('usage: bare.mjs get <body-file> | post <ddl-file> <db-file>\n');
  process.exit(2);
}

#!/usr/bin/env python3
"""An independent server of the Assessment and Job-Fit Service API v2.

Written from the API reference alone (not from the project's stub), to check
that the CLI relies only on what the reference promises. Standard library only.

    python3 server.py [--test-takers N] [--pending N] [--faults] [--port P] [--seed S]

Prints "listening on PORT" on stdout once it accepts connections.

What it follows from the reference:
- list envelope (mode, object 'list', total_count, has_more, data);
- GET /invitations and GET /test-takers: newest first; at most 50 items with no
  filter or team_id only, at most 150 with custom_id and/or email; custom_id and
  email are partial, case-insensitive matches; team_id exact, else 400
  'team_id not found'; custom_id over 50 or email over 255 characters: 400;
  total_count counts all matches; has_more when more match than are returned;
- "not shown beyond" shapes carry exactly the stated fields: test taker list
  items (id, custom_id, person_id, team, account), score profile list items,
  the account, career navigation profile list items (id, custom_id, person_id)
  and the career navigation profile object;
- the scorecard needs `sp` (400 when missing or unknown); the job fit report
  exists only when Personality (6) and Career Interests (8) are complete;
- a missing or wrong key: 404 {error: 'API key is required'}; unknown ids: 400;
  unknown profile id: 404 with a null body.

Where the reference is silent, it chooses on purpose (see the report):
- the career navigation profile list holds at most 100 items, OLDEST first;
- a job fit report that is not ready: 400 with a sentence that does not say
  "not found";
- objects the reference does show carry extra fields a newer server might add
  (x_* and created_at/updated_at), to exercise the client's leniency;
- teams are listed by display_name, descending; an empty filter parameter
  (`email=`) counts as absent;
- writes (POST/PUT) are answered 405: this server is read-only.

Faults (--faults), decided per request from a hash of its path and query and
of how many times that same request came before (so the schedule is the same
whatever the interleaving): one request in five is 429 with Retry-After: 1;
about one in eight has its connection dropped after the response is computed
(nothing is written); one in seven waits 200-800 ms first. A request is thus
refused several times in a row now and then, as a busy service does.

Control routes (no key, never faulted): GET /__stats (request counts by route),
POST /__reset?salt=S (zero the counts and restart the fault schedule, salted with S), GET /__truth (the data, for the test's checks).
"""
import argparse
import hashlib
import json
import random
import sys
import threading
import time
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

API_KEY = 'sk_live_indep_7f3c9a1e5b2d4086'
ACCOUNT = {'id': 7301, 'display_name': 'Harbor Logistics'}
TEAMS = [
    {'id': 41, 'display_name': 'Warehouse North'},
    {'id': 57, 'display_name': 'Dispatch & Fleet'},
    {'id': 88, 'display_name': 'Customer Desk'},
]
BASE_WEB = 'https://assess.example.test'

ASSESSMENTS = {
    1: {'id': 1, 'display_name': 'Prescreen', 'short_name': 'Prescreen'},
    6: {'id': 6, 'display_name': 'Personality Traits', 'short_name': 'Personality'},
    7: {'id': 7, 'display_name': 'Thinking Skills', 'short_name': 'Thinking'},
    8: {'id': 8, 'display_name': 'Career Interests', 'short_name': 'Interests'},
}

# Dimension catalog, from the reference's table.
CATALOG = {
    'thinking_skills': [['think', 'think-read', 'think-form', 'think-math']],
    'personality_traits': [
        ['agree', 'agree-comp', 'agree-coop', 'agree-help'],
        ['con', 'con-org', 'con-prin', 'con-resp', 'con-amb'],
        ['emot', 'emot-bal', 'emot-comp', 'emot-opt'],
        ['ext', 'ext-assert', 'ext-soc', 'ext-en'],
        ['open', 'open-ana', 'open-cre'],
    ],
    'career_interests': [
        ['ci-real', 'ci-real-con', 'ci-real-pro', 'ci-real-eng'],
        ['ci-inv', 'ci-inv-soft', 'ci-inv-ana', 'ci-inv-med'],
        ['ci-art', 'ci-art-cre', 'ci-art-wri'],
        ['ci-soc', 'ci-soc-tea', 'ci-soc-ser', 'ci-soc-cou'],
        ['ci-ent', 'ci-ent-man', 'ci-ent-sal'],
        ['ci-con', 'ci-con-adm', 'ci-con-fin'],
        ['ci-overall', 'ci-flm', 'ci-2lm'],
    ],
}
SECTION_TEST = {'thinking_skills': 7, 'personality_traits': 6, 'career_interests': 8}

SCORE_PROFILES = [
    {'id': 301, 'display_name': 'Forklift Operator', 'short_name': 'fork-op', 'riasec_profile': 'RCE'},
    {'id': 302, 'display_name': 'Dispatcher II', 'short_name': 'dispatch-2', 'riasec_profile': 'CES'},
    {'id': 305, 'display_name': 'Service Lead', 'short_name': 'svc-lead', 'riasec_profile': 'SEC'},
]
SP_BY_SHORT = {p['short_name']: p for p in SCORE_PROFILES}

FIRST = ['Ana', 'Bo', 'Chidi', 'Dana', 'Émile', 'Farah', 'Gus', 'Hana', 'Ivo', 'June', 'Kofi', 'Lea', 'Mateo', 'Nia',
         'Olek', 'Priya', 'Quinn', 'Rui', 'Sade', 'Tomás', 'Uma', 'Vik', 'Wen', 'Xia', 'Yusuf', 'Zoë']
LAST = ['Okafor', 'Lindqvist', 'García', 'Nguyen', "O'Brien", 'Schmidt', 'Kowalski', 'Haddad', 'Ito', 'Mensah',
        'Rossi', 'Dubois', 'Silva', 'Novak', 'Costa', 'Berg']
DOMAINS = ['gmail.com'] * 8 + ['Outlook.com'] * 3 + ['harbor-logistics.example', 'yahoo.co.uk', 'proton.me',
                                                      'MAIL.Example.ORG', 'fastmail.fm', 'web.de', 'icloud.com']
CUSTOM_IDS = ['North-Ops', 'south-ops', 'Retail 2026', None, None, 'ΔDelta', 'a,b "quoted"', 'NORTH-ops-2']
LETTERS = 'RIASEC'


def iso(dt):
    return dt.strftime('%Y-%m-%dT%H:%M:%S.') + f'{dt.microsecond // 1000:03d}Z'


def h(*parts):
    """A deterministic integer from the parts."""
    return int.from_bytes(hashlib.sha1('|'.join(map(str, parts)).encode()).digest()[:8], 'big')


class Data:
    def __init__(self, n_takers, n_pending, seed):
        rng = random.Random(seed)
        start = datetime(2026, 3, 2, 8, 0, 0, tzinfo=timezone.utc)
        total = n_takers + n_pending
        accepted = set(rng.sample(range(total), n_takers))
        self.invitations = []
        inv_id = 500000
        used_emails = set()
        for i in range(total):
            inv_id += rng.randint(1, 3)
            first, last = rng.choice(FIRST), rng.choice(LAST)
            style = rng.random()
            base = ''.join(ch for ch in (first + '.' + last).replace("'", '') if ch.isascii()).strip('.')
            if style < 0.5:
                local = f'{base}{i}'
            elif style < 0.7:
                local = f'{base.lower()}+{i}'
            elif style < 0.85:
                local = f'{i}.{last[:1]}'.upper()
            else:
                local = f'x{i:05d}'
            email = f'{local}@{rng.choice(DOMAINS)}'
            assert email.lower() not in used_emails
            used_emails.add(email.lower())
            team = rng.choices(TEAMS, weights=[5, 3, 2])[0]
            r = rng.random()
            combo = [6, 7, 8] if r < 0.6 else [6, 8] if r < 0.8 else [7] if r < 0.9 else [1]
            self.invitations.append({
                'id': inv_id,
                'first_name': first,
                'last_name': last,
                'email': email,
                'phone': f'+1555{rng.randint(1000000, 9999999)}' if rng.random() < 0.3 else None,
                'created_at': start + timedelta(seconds=37 * i + rng.randint(0, 30)),
                'custom_id': rng.choice(CUSTOM_IDS),
                'person_id': f'P-{i:06d}' if rng.random() < 0.8 else None,
                'team': team,
                'combo': combo,
                'accepted': i in accepted,
                'accepted_at': None,
                'test_taker_id': None,
            })
        # Acceptance happens in an order of its own; test taker ids follow acceptance.
        acc = [inv for inv in self.invitations if inv['accepted']]
        rng.shuffle(acc)
        tt_id = 90000
        self.takers = []
        t0 = start + timedelta(days=120)
        for k, inv in enumerate(acc):
            tt_id += rng.randint(1, 2)
            inv['test_taker_id'] = tt_id
            inv['accepted_at'] = t0 + timedelta(seconds=41 * k)
            state = rng.random()
            if state < 0.5:
                done = []
            elif state < 0.75:
                done = list(inv['combo'])
            else:
                done = [t for t in inv['combo'] if rng.random() < 0.5] or [inv['combo'][0]]
            completed = {t: inv['accepted_at'] + timedelta(hours=1 + j) for j, t in enumerate(done)}
            profile_id = f'cnp_{h("cnp", tt_id):016x}'[:16] if 8 in completed else None
            self.takers.append({
                'id': tt_id,
                'inv': inv,
                'completed': completed,
                'started': {t: True for t in inv['combo'] if t in completed or rng.random() < 0.2},
                'profile_id': profile_id,
                'profile_created_at': completed.get(8),
            })
        self.inv_newest = sorted(self.invitations, key=lambda x: x['created_at'], reverse=True)
        self.tt_newest = sorted(self.takers, key=lambda t: t['inv']['accepted_at'], reverse=True)
        self.tt_by_id = {t['id']: t for t in self.takers}
        self.inv_by_id = {inv['id']: inv for inv in self.invitations}
        self.profiles_oldest = sorted((t for t in self.takers if t['profile_id']), key=lambda t: t['profile_created_at'])
        self.profile_by_id = {t['profile_id']: t for t in self.profiles_oldest}

    def truth(self):
        return {
            'account': ACCOUNT,
            'teams': TEAMS,
            'score_profiles': [p['short_name'] for p in SCORE_PROFILES],
            'invitations': [{'id': i['id'], 'email': i['email'], 'team_id': i['team']['id'], 'test_taker_id': i['test_taker_id']} for i in self.invitations],
            'test_takers': [{
                'id': t['id'],
                'invitation_id': t['inv']['id'],
                'team_id': t['inv']['team']['id'],
                'custom_id': t['inv']['custom_id'],
                'has_results': len(t['completed']) > 0,
                'job_fit': 6 in t['completed'] and 8 in t['completed'],
                'profile_id': t['profile_id'],
                'five_star': {sp: five_star(t, sp) for sp in SP_BY_SHORT} if t['completed'] else None,
            } for t in self.takers],
        }


def urls(t):
    inv = t['inv']
    tok = f'{h("tok", inv["id"]):x}'
    return {
        'assessment_url': f'{BASE_WEB}/start/{tok}',
        'scorecard_url': f'{BASE_WEB}/scorecards/{t["id"]}' if t else None,
        'job_fit_summary_url': f'{BASE_WEB}/job-fit/{t["id"]}' if 6 in t['completed'] and 8 in t['completed'] else None,
        'career_navigation_url': f'https://careers.example.test/p/{t["profile_id"]}' if t['profile_id'] else None,
        'career_options_spotlight_url': f'{BASE_WEB}/spotlight/{t["id"]}' if 8 in t['completed'] else None,
    }


def five_star(t, sp):
    return 1 + h('star', t['id'], sp) % 5


def score_obj(tt_id, short, desc_prefix, facets=None):
    v = h('score', tt_id, short)
    o = {
        'object': 'score',
        'id': h('dim', short) % 100000,
        'display_name': short.replace('-', ' ').title(),
        'short_name': short,
        'description': f'{desc_prefix} {short}',
        'is_starred': v % 7 == 0,
        'yellow_band': 3 + v % 4,
        'test_taker_score': 1 + (v >> 8) % 10,
    }
    if facets is not None:
        o['facets'] = facets
    return o


def scorecard(t, sp):
    inv = t['inv']
    scores = {k: None for k in ['thinking_skills', 'personality_traits', 'career_interests', 'skill_survey_reference', 'structured_interview']}
    for section, dims in CATALOG.items():
        if SECTION_TEST[section] not in t['completed']:
            continue
        scores[section] = [score_obj(t['id'], d[0], 'Dimension', [score_obj(t['id'], f, 'Facet') for f in d[1:]]) for d in dims]
    any_done = bool(t['completed'])
    star = five_star(t, sp['short_name']) if any_done else None
    u = urls(t)
    return {
        'mode': 'live',
        'object': 'scorecard',
        'test_taker_id': t['id'],
        'invitation_id': inv['id'],
        'custom_id': inv['custom_id'],
        'person_id': inv['person_id'],
        'career_navigation_profile_id': t['profile_id'],
        'first_name': inv['first_name'],
        'last_name': inv['last_name'],
        'email': inv['email'],
        'phone': inv['phone'],
        'fitscore_raw': round((h('raw', t['id'], sp['short_name']) % 100000) / 997.0, 3) if any_done else None,
        'five_star_score': star,
        'job_fit_percentage': (star * 17 + h('pct', t['id']) % 15) if any_done else None,
        'scorecard_url': u['scorecard_url'],
        'score_profile': dict(sp),
        'riasec_profile': riasec(t) if 8 in t['completed'] else None,
        'scores': scores,
        'x_scored_at': iso(max(t['completed'].values())) if any_done else None,
        'x_engine': {'build': 'indep-2.7', 'flags': []},
    }


def riasec(t):
    letters = list(LETTERS)
    random.Random(h('riasec', t['id'])).shuffle(letters)
    return ''.join(letters[:3])


def job_fit_report(t):
    inv = t['inv']
    u = urls(t)
    code = riasec(t)
    rng = random.Random(h('jf', t['id']))
    names = {'R': 'Realistic', 'I': 'Investigative', 'A': 'Artistic', 'S': 'Social', 'E': 'Enterprising', 'C': 'Conventional'}
    ci = [{'object': 'career_interest', 'id': 10 + k, 'display_name': names[L], 'short_name': L, 'description': f'{names[L]} interests',
           'facets': [{'object': 'career_interest_facet', 'id': 100 + 10 * k + j, 'display_name': f'{names[L]} facet {j}', 'short_name': f'{L}{j}',
                       'description': 'facet', 'test_taker_score_range': rng.choice(['Low', 'Medium', 'High'])} for j in range(2)]}
          for k, L in enumerate(LETTERS)]
    traits = ['Agreeableness', 'Conscientiousness', 'Emotional Stability', 'Extroversion', 'Openness']
    pt = [{'object': 'personality_trait', 'id': 20 + k, 'display_name': f'{n} Overall', 'short_name': n[:4].lower(), 'description': n,
           'facets': [{'object': 'personality_trait_facet', 'id': 200 + 10 * k + j, 'display_name': f'{n} facet {j}', 'short_name': f'{n[:3].lower()}-{j}',
                       'description': 'facet', 'anchor_low': 'low', 'anchor_high': 'high',
                       'test_taker_score_range': rng.choice(['Less Pronounced', 'Moderately Pronounced', 'More Pronounced'])} for j in range(2)]}
          for k, n in enumerate(traits)]
    occ = []
    for r in range(1, 16):
        fam = rng.randint(1, 40)
        zone = rng.randint(1, 5)
        occ.append({'object': 'job_family_job_fit', 'job_family_number': f'JF-{fam:03d}', 'job_family_name': f'Family {fam} (Zone {zone})',
                    'job_family_job_zone': zone, 'job_fit_percentage': round(99 - r * 3.5 - rng.random(), 1), 'job_fit_star_rating': max(1, 5 - r // 4), 'rank': r})
    return {
        'mode': 'live', 'object': 'job_fit_report', 'test_taker_id': t['id'], 'invitation_id': inv['id'], 'custom_id': inv['custom_id'],
        'person_id': inv['person_id'], 'career_navigation_profile_id': t['profile_id'], 'first_name': inv['first_name'],
        'last_name': inv['last_name'], 'email': inv['email'], 'assessment_url': u['assessment_url'], 'career_navigation_url': u['career_navigation_url'],
        'scorecard_url': u['scorecard_url'], 'job_fit_summary_url': u['job_fit_summary_url'], 'career_options_spotlight_url': u['career_options_spotlight_url'],
        'team': dict(inv['team']), 'account': dict(ACCOUNT), 'riasec_profile': code,
        'career_interests_profile': [{'id': 10 + LETTERS.index(L), 'display_name': names[L], 'short_name': L, 'description': names[L], 'rank': k + 1} for k, L in enumerate(code)],
        'career_interests': ci,
        'personality_traits_profile': [{'id': 20 + k, 'display_name': n, 'short_name': n[:4].lower(), 'description': n, 'rank': k + 1} for k, n in enumerate(traits)],
        'personality_traits': pt,
        'top_fit_occupations': occ,
        'x_pdf_pages': 7,
    }


def invitation_list_item(inv):
    return {
        'object': 'invitation_list_item', 'id': inv['id'], 'first_name': inv['first_name'], 'last_name': inv['last_name'], 'email': inv['email'],
        'created_at': iso(inv['created_at']), 'accepted_at': iso(inv['accepted_at']) if inv['accepted_at'] else None,
        'assessment_url': f'{BASE_WEB}/start/{h("tok", inv["id"]):x}', 'test_taker_id': inv['test_taker_id'], 'custom_id': inv['custom_id'],
        'person_id': inv['person_id'], 'team': dict(inv['team']), 'account': dict(ACCOUNT),
        'x_delivery': {'email': 'delivered'}, 'updated_at': iso(inv['accepted_at'] or inv['created_at']),
    }


def taker_list_item(t):
    # "not shown beyond custom_id, person_id, team, account" (plus the id): exactly these.
    inv = t['inv']
    return {'id': t['id'], 'custom_id': inv['custom_id'], 'person_id': inv['person_id'], 'team': dict(inv['team']), 'account': dict(ACCOUNT)}


def taker_object(t):
    inv = t['inv']
    u = urls(t)
    return {
        'mode': 'live', 'object': 'test_taker', 'id': t['id'], 'person_id': inv['person_id'], 'invitation_id': inv['id'], 'phone': inv['phone'],
        'assigned_assessments': [{'id': t['id'] * 10 + k, 'completed_at': iso(t['completed'][a]) if a in t['completed'] else None,
                                  'language': ('es' if h('lang', t['id']) % 4 == 0 else 'en') if a in t['started'] else None,
                                  'assessment': dict(ASSESSMENTS[a])} for k, a in enumerate(inv['combo'])],
        'scorecard_url': u['scorecard_url'], 'job_fit_summary_url': u['job_fit_summary_url'], 'career_navigation_url': u['career_navigation_url'],
        'career_navigation_profile_id': t['profile_id'], 'custom_id': inv['custom_id'],
        'created_at': iso(inv['accepted_at']), 'x_region': 'eu-west-2',
    }


def profile_object(t):
    # The reference's table, exactly.
    return {
        'mode': 'live', 'object': 'career_navigation_profile', 'id': t['profile_id'], 'person_id': t['inv']['person_id'], 'test_taker_id': t['id'],
        'career_navigation_url': urls(t)['career_navigation_url'],
        'exercises': {'strengthsCareerInterests': f'Strong {riasec(t)[0]}', 'targetJobName': 'Logistics Coordinator'},
        'plan_job_1': {'jobName': 'Dispatcher', 'onetCode': '43-5032.00'},
    }


def envelope(items, total):
    return {'mode': 'live', 'object': 'list', 'total_count': total, 'has_more': total > len(items), 'data': items}


class BadRequest(Exception):
    pass


def list_people(rows, q, team_of, email_of, custom_of):
    team_id = q.get('team_id')
    custom = q.get('custom_id')
    email = q.get('email')
    if team_id is not None:
        try:
            tid = int(team_id)
        except ValueError:
            raise BadRequest('team_id not found')
        if tid not in {t['id'] for t in TEAMS}:
            raise BadRequest('team_id not found')
        rows = [r for r in rows if team_of(r) == tid]
    if custom is not None:
        if len(custom) > 50:
            raise BadRequest('custom_id: must be at most 50 characters')
        c = custom.lower()
        rows = [r for r in rows if custom_of(r) is not None and c in custom_of(r).lower()]
    if email is not None:
        if len(email) > 255:
            raise BadRequest('email: must be at most 255 characters')
        e = email.lower()
        rows = [r for r in rows if e in email_of(r).lower()]
    cap = 150 if (custom is not None or email is not None) else 50
    return rows[:cap], len(rows)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256


def make_handler(data, faults):
    lock = threading.Lock()
    state = {'stats': {}, 'seen': {}, 'salt': ''}

    def count(key):
        with lock:
            state['stats'][key] = state['stats'].get(key, 0) + 1

    class Handler(BaseHTTPRequestHandler):
        protocol_version = 'HTTP/1.1'
        server_version = 'indep/1'

        def log_message(self, *args):
            pass

        def send_json(self, status, body, headers=None):
            raw = json.dumps(body, ensure_ascii=False, separators=(',', ':')).encode()
            self.send_response(status)
            self.send_header('Content-Type', 'application/json; charset=utf-8')
            self.send_header('Content-Length', str(len(raw)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(raw)

        def drain(self):
            n = int(self.headers.get('Content-Length') or 0)
            if n:
                self.rfile.read(n)

        def do_POST(self):
            self.drain()
            if urlsplit(self.path).path == '/__reset':
                salt = parse_qs(urlsplit(self.path).query).get('salt', [''])[0]
                with lock:
                    state['stats'] = {}
                    state['seen'] = {}
                    state['salt'] = salt
                return self.send_json(200, {'ok': True})
            self.refuse()

        def do_PUT(self):
            self.drain()
            self.refuse()

        def refuse(self):
            raw = b'Method not supported by this read-only server'
            self.send_response(405)
            self.send_header('Content-Type', 'text/plain')
            self.send_header('Content-Length', str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def do_GET(self):
            parts = urlsplit(self.path)
            path = parts.path.rstrip('/') or '/'
            if path == '/__stats':
                with lock:
                    return self.send_json(200, dict(state['stats']))
            if path == '/__truth':
                return self.send_json(200, data.truth())
            q = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items() if v and v[0] != ''}
            segs = [unquote(s) for s in path.strip('/').split('/')]
            route = route_key(segs)
            count(route)
            fault = None
            if faults:
                # Decided by the request (path and query) and how many times it was asked
                # before, so the schedule does not depend on how requests interleave.
                with lock:
                    k = state['seen'][self.path] = state['seen'].get(self.path, 0) + 1
                roll = h('fault', state['salt'], self.path, k) % 100
                fault = '429' if roll < 20 else 'drop' if roll < 32 else None
                if fault == '429':
                    count('fault:429')
                    return self.send_json(429, {'error': 'Too many requests'}, {'Retry-After': '1'})
                if h('lat', self.path, k) % 7 == 0:
                    count('fault:latency')
                    time.sleep(0.2 + (h('ms', self.path, k) % 600) / 1000.0)
            try:
                status, body = self.answer(segs, q)
            except BadRequest as e:
                status, body = 400, {'error': str(e)}
            if fault == 'drop':
                # The response is computed (and would be committed), then the connection drops.
                count('fault:drop')
                self.close_connection = True
                try:
                    self.connection.shutdown(2)
                except OSError:
                    pass
                return
            self.send_json(status, body)

        def answer(self, segs, q):
            if segs == ['healthcheck']:
                return 200, {'status': 'ok', 'timestamp': iso(datetime.now(timezone.utc)), 'version': 'v2'}
            auth = self.headers.get('Authorization') or ''
            if auth != f'Bearer {API_KEY}':
                return 404, {'error': 'API key is required'}
            if segs == ['accounts']:
                return 200, {'mode': 'live', 'webhook_endpoint': None, 'webhooks_enabled': False}
            if segs == ['teams']:
                counts = {t['id']: [0, 0] for t in TEAMS}
                for inv in data.invitations:
                    counts[inv['team']['id']][0] += 1
                    if inv['test_taker_id']:
                        counts[inv['team']['id']][1] += 1
                items = [{'object': 'team_list_item', 'id': t['id'], 'display_name': t['display_name'], 'users_count': 2,
                          'invitations_count': counts[t['id']][0], 'test_takers_count': counts[t['id']][1], 'x_archived': False}
                         for t in sorted(TEAMS, key=lambda t: t['display_name'], reverse=True)]
                return 200, envelope(items, len(items))
            if segs == ['score-profiles']:
                return 200, envelope([dict(p) for p in SCORE_PROFILES], len(SCORE_PROFILES))
            if segs == ['assessments']:
                items = [dict(a) for a in ASSESSMENTS.values()]
                return 200, envelope(items, len(items))
            if segs == ['users']:
                items = [{'default_team': dict(TEAMS[0]), 'default_assessments': [dict(ASSESSMENTS[6])],
                          'default_invitation_email_template': None, 'default_congrats_email_template': None}]
                return 200, envelope(items, 1)
            if segs == ['email-templates']:
                items = [{'id': 9001, 'display_name': 'Standard invite'}]
                return 200, envelope(items, 1)
            if segs == ['invitations']:
                rows, total = list_people(data.inv_newest, q, lambda r: r['team']['id'], lambda r: r['email'], lambda r: r['custom_id'])
                return 200, envelope([invitation_list_item(r) for r in rows], total)
            if len(segs) == 2 and segs[0] == 'invitations':
                inv = data.inv_by_id.get(int(segs[1])) if segs[1].isdigit() else None
                if inv is None:
                    raise BadRequest('Invitation not found')
                item = invitation_list_item(inv)
                item['object'] = 'invitation'
                item['mode'] = 'live'
                return 200, item
            if segs == ['test-takers']:
                rows, total = list_people(data.tt_newest, q, lambda t: t['inv']['team']['id'], lambda t: t['inv']['email'], lambda t: t['inv']['custom_id'])
                return 200, envelope([taker_list_item(t) for t in rows], total)
            if len(segs) in (2, 3) and segs[0] == 'test-takers':
                t = data.tt_by_id.get(int(segs[1])) if segs[1].isdigit() else None
                if t is None:
                    raise BadRequest('Test taker not found')
                if len(segs) == 2:
                    return 200, taker_object(t)
                if segs[2] == 'scorecard':
                    sp = q.get('sp')
                    if sp is None:
                        raise BadRequest('sp is required')
                    if sp not in SP_BY_SHORT:
                        raise BadRequest(f'Invalid score profile: {sp}')
                    return 200, scorecard(t, SP_BY_SHORT[sp])
                if segs[2] == 'job-fit-report':
                    if not (6 in t['completed'] and 8 in t['completed']):
                        raise BadRequest('Job fit report requires completed Personality Traits and Career Interests assessments')
                    return 200, job_fit_report(t)
            if segs == ['career-navigation-profiles']:
                rows = data.profiles_oldest
                items = [{'id': t['profile_id'], 'custom_id': t['inv']['custom_id'], 'person_id': t['inv']['person_id']} for t in rows[:100]]
                return 200, envelope(items, len(rows))
            if len(segs) == 2 and segs[0] == 'career-navigation-profiles':
                t = data.profile_by_id.get(segs[1])
                if t is None:
                    return 404, None
                return 200, profile_object(t)
            return 404, {'error': 'Not found'}

    return Handler


def route_key(segs):
    if len(segs) >= 2 and segs[0] in ('test-takers', 'invitations', 'career-navigation-profiles'):
        return '/'.join([segs[0], ':id'] + segs[2:])
    return '/'.join(segs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--test-takers', type=int, default=10000)
    ap.add_argument('--pending', type=int, default=None, help='invitations not accepted (default: 4%% of test takers)')
    ap.add_argument('--seed', type=int, default=20261124)
    ap.add_argument('--port', type=int, default=0)
    ap.add_argument('--faults', action='store_true')
    a = ap.parse_args()
    pending = a.pending if a.pending is not None else max(1, a.test_takers // 25)
    data = Data(a.test_takers, pending, a.seed)
    srv = Server(('127.0.0.1', a.port), make_handler(data, a.faults))
    print(f'listening on {srv.server_address[1]}', flush=True)
    try:
        srv.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass


if __name__ == '__main__':
    main()

var __defProp = Object.defineProperty;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __esm = (fn, res, err) => function __init() {
  if (err) throw err[0];
  try {
    return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res;
  } catch (e) {
    throw err = [e], e;
  }
};
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// ../../../tmp/fairprof/main/src/api/messages.ts
var MSG;
var init_messages = __esm({
  "../../../tmp/fairprof/main/src/api/messages.ts"() {
    "use strict";
    MSG = {
      // authentication (404)
      apiKeyRequired: "API key is required",
      accountNotFound: "Account not found for API key",
      // POST /invitations (reference)
      userNotFound: (email2) => `User not found with email: ${email2}`,
      noDefaultTeam: (email2) => `User with email ${email2} does not have a default team`,
      noDefaultAssessments: (email2) => `User with email ${email2} does not have default assessments to assign`,
      noDefaultTemplate: (email2) => `User with email ${email2} does not have a default invitation email template`,
      teamNotFound: "team_id not found",
      duplicateInvitationSameTeam: (email2) => `Team already has an invitation with email ${email2}`,
      duplicateTestTakerSameTeam: (email2) => `Team already has a test taker with email ${email2}`,
      duplicateOtherTeam: (email2) => `Another team in this account already has an invitation with email ${email2}`,
      smsNeedsPhone: "Phone is required if sending via text message (SMS)",
      prescreenCombined: "Choose either Prescreen or other assessments, but not both.",
      // decided (docs/stub.md)
      templateNotFound: "email_template_id not found",
      congratsTemplateNotFound: "congrats_email_template_id not found",
      unknownAssessment: (testId2) => `assessments_to_assign: Unknown assessment test_id ${testId2}`,
      invitationNotFound: "Invitation not found",
      testTakerNotFound: "Test taker not found",
      assessmentsLocked: "assessments_to_assign: Assessments cannot be changed after the invitation has been accepted",
      spRequired: "sp is required",
      spInvalid: (sp) => `Invalid sp: ${sp}`,
      jobFitNotReady: "Job fit report is available only after the Personality and Career Interests assessments are complete",
      invalidJson: "Request body must be valid JSON",
      bodyNotObject: "Request body must be a JSON object",
      notFound: "Not found",
      methodNotAllowed: "Method Not Allowed",
      bodyTooLarge: "Request body is too large (at most 1 MiB)",
      /** 507 (full disk) or 503 (read-only): the stub could not store the request. */
      notStored: (cause) => `Nothing was stored: ${cause}`
    };
  }
});

// ../../../tmp/fairprof/main/src/stub/group-commit.ts
function groupCommitOf(store2) {
  let g = perStore.get(store2);
  if (!g) {
    g = new GroupCommit(store2);
    perStore.set(store2, g);
  }
  return g;
}
var MAX_BATCH, GroupCommit, perStore;
var init_group_commit = __esm({
  "../../../tmp/fairprof/main/src/stub/group-commit.ts"() {
    "use strict";
    MAX_BATCH = 256;
    GroupCommit = class {
      constructor(store2) {
        this.store = store2;
      }
      store;
      queue = [];
      scheduled = false;
      /**
       * Rows this committer has changed (SQLite's total_changes() counts them
       * too). The app subtracts them to tell "only new invitations were written"
       * from other writes on this connection, which may touch keys or configuration.
       */
      ownChanges = 0;
      /** Runs the job in the next group transaction; settles after its commit. */
      submit(job) {
        return new Promise((resolve2, reject) => {
          this.queue.push({ job, resolve: resolve2, reject });
          if (!this.scheduled) {
            this.scheduled = true;
            setImmediate(() => this.flush());
          }
        });
      }
      totalChanges() {
        return this.store.get("SELECT total_changes() AS c").c;
      }
      flush() {
        this.scheduled = false;
        const before = this.totalChanges();
        try {
          this.drain();
        } finally {
          this.ownChanges += this.totalChanges() - before;
        }
      }
      drain() {
        while (this.queue.length > 0) {
          const batch = this.queue.length <= MAX_BATCH ? this.queue : this.queue.slice(0, MAX_BATCH);
          this.queue = this.queue.length <= MAX_BATCH ? [] : this.queue.slice(MAX_BATCH);
          this.runBatch(batch);
        }
      }
      runBatch(batch) {
        if (batch.length === 1 || this.store.db.inTransaction) {
          for (const p of batch) this.runAlone(p);
          return;
        }
        const outcomes = [];
        try {
          this.store.write(() => {
            outcomes.length = 0;
            for (const p of batch) {
              try {
                p.job.check();
              } catch (err) {
                outcomes.push({ ok: false, value: err });
                continue;
              }
              outcomes.push({ ok: true, value: p.job.apply() });
            }
          });
        } catch (err) {
          if (this.store.diskError(err)) {
            for (const p of batch) p.reject(err);
            return;
          }
          for (const p of batch) this.runAlone(p);
          return;
        }
        batch.forEach((p, i) => {
          const o = outcomes[i];
          if (o.ok) p.resolve(o.value);
          else p.reject(o.value);
        });
      }
      runAlone(p) {
        try {
          p.resolve(
            this.store.write(() => {
              p.job.check();
              return p.job.apply();
            })
          );
        } catch (err) {
          p.reject(err);
        }
      }
    };
    perStore = /* @__PURE__ */ new WeakMap();
  }
});

// ../../../tmp/fairprof/main/src/stub/http/reply.ts
function fail(message, status = 400) {
  throw new HttpError(error(status, message));
}
function methodNotAllowed(allowed) {
  const allow = allowed.includes("GET") ? [...allowed, "HEAD"] : allowed;
  return { status: 405, text: MSG.methodNotAllowed, headers: { allow: allow.join(", ") } };
}
function replyParts(reply) {
  const isJson = !("text" in reply);
  const body2 = "json" in reply ? JSON.stringify(reply.json) : "raw" in reply ? reply.raw : reply.text;
  const headers = {
    "content-type": isJson ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
    "content-length": typeof body2 === "string" ? Buffer.byteLength(body2) : body2.length,
    ...reply.headers
  };
  return { headers, body: body2 };
}
var json, error, HttpError;
var init_reply = __esm({
  "../../../tmp/fairprof/main/src/stub/http/reply.ts"() {
    "use strict";
    init_messages();
    json = (status, body2) => ({ status, json: body2 });
    error = (status, message) => json(status, { error: message });
    HttpError = class extends Error {
      constructor(reply) {
        super("http error");
        this.reply = reply;
      }
      reply;
    };
  }
});

// ../../../tmp/fairprof/main/src/stub/ids.ts
function newToken() {
  if (tokenAt + TOKEN_BYTES > tokenPool.length) {
    tokenPool = randomBytes(TOKEN_BYTES * 256);
    tokenAt = 0;
  }
  tokenAt += TOKEN_BYTES;
  return tokenPool.toString("base64url", tokenAt - TOKEN_BYTES, tokenAt);
}
function newProfileId() {
  return `cnp_${randomBytes(15).toString("base64url").replace(/[-_]/g, "").slice(0, 20).padEnd(20, "0")}`;
}
function nowIso() {
  const t = Date.now();
  if (t !== isoAt) {
    isoAt = t;
    isoText = new Date(t).toISOString();
  }
  return isoText;
}
var TOKEN_BYTES, tokenPool, tokenAt, randomBytes, isoAt, isoText;
var init_ids = __esm({
  "../../../tmp/fairprof/main/src/stub/ids.ts"() {
    "use strict";
    TOKEN_BYTES = 18;
    tokenPool = Buffer.alloc(0);
    tokenAt = 0;
    randomBytes = (n) => process.getBuiltinModule("node:crypto").randomBytes(n);
    isoAt = -1;
    isoText = "";
  }
});

// ../../../tmp/fairprof/main/src/stub/routes/accounts.ts
var accounts_exports = {};
__export(accounts_exports, {
  getAccount: () => getAccount
});
function getAccount(c) {
  const a = c.store.get(
    "SELECT * FROM accounts WHERE id = ?",
    c.auth.accountId
  );
  const live = c.auth.mode === "live";
  const body2 = {
    mode: c.auth.mode,
    object: "account",
    id: a.id,
    display_name: a.display_name,
    // Test mode shows the test endpoint; test keys never produce events.
    webhook_endpoint: live ? a.webhook_endpoint : a.webhook_test_endpoint,
    webhooks_enabled: live ? a.webhooks_enabled === 1 : false
  };
  return json(200, body2);
}
var init_accounts = __esm({
  "../../../tmp/fairprof/main/src/stub/routes/accounts.ts"() {
    "use strict";
    init_reply();
  }
});

// ../../../tmp/fairprof/main/src/api/catalog.ts
var TEST_ID, ASSESSMENT_ALIASES, BY_KEY, DIMENSION_CATALOG, CATALOG_SHORT_NAMES;
var init_catalog = __esm({
  "../../../tmp/fairprof/main/src/api/catalog.ts"() {
    "use strict";
    TEST_ID = { prescreen: 1, personality: 6, thinking: 7, interests: 8 };
    ASSESSMENT_ALIASES = {
      prescreen: TEST_ID.prescreen,
      "pre screen": TEST_ID.prescreen,
      screening: TEST_ID.prescreen,
      personality: TEST_ID.personality,
      "personality traits": TEST_ID.personality,
      traits: TEST_ID.personality,
      thinking: TEST_ID.thinking,
      "thinking skills": TEST_ID.thinking,
      cognitive: TEST_ID.thinking,
      interests: TEST_ID.interests,
      "career interests": TEST_ID.interests,
      career: TEST_ID.interests
    };
    BY_KEY = new Map(Object.entries(ASSESSMENT_ALIASES));
    DIMENSION_CATALOG = {
      thinking_skills: [["think", "think-read", "think-form", "think-math"]],
      personality_traits: [
        ["agree", "agree-comp", "agree-coop", "agree-help"],
        ["con", "con-org", "con-prin", "con-resp", "con-amb"],
        ["emot", "emot-bal", "emot-comp", "emot-opt"],
        ["ext", "ext-assert", "ext-soc", "ext-en"],
        ["open", "open-ana", "open-cre"]
      ],
      career_interests: [
        ["ci-real", "ci-real-con", "ci-real-pro", "ci-real-eng"],
        ["ci-inv", "ci-inv-soft", "ci-inv-ana", "ci-inv-med"],
        ["ci-art", "ci-art-cre", "ci-art-wri"],
        ["ci-soc", "ci-soc-tea", "ci-soc-ser", "ci-soc-cou"],
        ["ci-ent", "ci-ent-man", "ci-ent-sal"],
        ["ci-con", "ci-con-adm", "ci-con-fin"],
        ["ci-overall", "ci-flm", "ci-2lm"]
      ]
    };
    CATALOG_SHORT_NAMES = Object.values(DIMENSION_CATALOG).flatMap((dims) => dims.flat());
  }
});

// ../../../tmp/fairprof/main/src/stub/catalog.ts
function dim(section, id2, short_name, display_name, description, is_starred, facets) {
  return {
    section,
    id: id2,
    short_name,
    display_name,
    description,
    is_starred,
    // Score points outside the profile's target range still drawn yellow.
    yellow_band: 1,
    facets: facets.map(([s, d2, desc, lo, hi], i) => ({
      id: id2 + i + 1,
      short_name: s,
      display_name: d2,
      description: desc,
      is_starred: false,
      yellow_band: 1,
      ...lo !== void 0 ? { anchor_low: lo, anchor_high: hi } : {}
    }))
  };
}
function dimensionsOf(section) {
  return DIMENSIONS.filter((d2) => d2.section === section);
}
function traits(targets, weights) {
  const t = [...targets].map((c) => c === "X" ? 10 : Number(c));
  const w = [...weights].map(Number);
  const out = {};
  TRAIT_KEYS.forEach((k, i) => {
    out[k] = { target: t[i], weight: w[i] };
  });
  return out;
}
function scoreProfileByShortName(shortName) {
  return SCORE_PROFILES.find((p) => p.short_name === shortName);
}
var ASSESSMENTS, DIMENSIONS, ALL_SCORE_SHORT_NAMES, byShortName, CAREER_INTEREST_TYPES, PERSONALITY_TRAITS, TRAIT_KEYS, JOB_FAMILY_ROWS, JOB_FAMILIES, SCORE_PROFILE_ROWS, SCORE_PROFILES;
var init_catalog2 = __esm({
  "../../../tmp/fairprof/main/src/stub/catalog.ts"() {
    "use strict";
    init_catalog();
    ASSESSMENTS = [
      { id: 1, display_name: "Prescreen", short_name: "Prescreen" },
      { id: 6, display_name: "Personality Traits", short_name: "Personality" },
      { id: 7, display_name: "Thinking Skills", short_name: "Thinking" },
      { id: 8, display_name: "Career Interests", short_name: "Interests" }
    ];
    DIMENSIONS = [
      dim("thinking_skills", 100, "think", "Thinking Skills", "How readily the person learns, reasons and solves new problems.", true, [
        ["think-read", "Verbal Reasoning", "Drawing sound conclusions from written passages."],
        ["think-form", "Pattern Reasoning", "Spotting the rule behind sequences of shapes and symbols."],
        ["think-math", "Numerical Reasoning", "Working through problems that involve numbers and quantities."]
      ]),
      dim("personality_traits", 200, "agree", "Agreeableness", "How warm, trusting and accommodating the person tends to be with others.", false, [
        ["agree-comp", "Compassion", "Attention to how other people feel.", "Keeps feelings out of decisions", "Tuned in to the feelings of others"],
        ["agree-coop", "Cooperation", "Willingness to go along with the group and avoid friction.", "Stands ground and challenges others", "Seeks harmony and compromise"],
        ["agree-help", "Helpfulness", "Readiness to lend a hand without being asked.", "Focuses on own tasks first", "Steps in to support colleagues"]
      ]),
      dim("personality_traits", 210, "con", "Conscientiousness", "How organized, dependable and driven the person tends to be.", true, [
        ["con-org", "Organization", "Preference for order, plans and tidy routines.", "Flexible and spontaneous", "Plans ahead and keeps things in order"],
        ["con-prin", "Integrity", "Commitment to rules, honesty and doing things the right way.", "Bends rules when they get in the way", "Holds firmly to rules and standards"],
        ["con-resp", "Dependability", "Following through on commitments and deadlines.", "Relaxed about commitments", "Reliably delivers what was promised"],
        ["con-amb", "Drive", "Desire to achieve, improve and take on demanding goals.", "Content with the current level", "Sets and chases ambitious goals"]
      ]),
      dim("personality_traits", 220, "emot", "Emotional Stability", "How steady and resilient the person tends to be under pressure.", false, [
        ["emot-bal", "Even Temper", "Keeping moods level from day to day.", "Moods shift with events", "Stays on an even keel"],
        ["emot-comp", "Composure", "Staying calm when things go wrong.", "Feels pressure strongly", "Keeps a cool head in a crisis"],
        ["emot-opt", "Optimism", "Expecting things to turn out well.", "Cautious and sceptical about outcomes", "Confident that things will work out"]
      ]),
      dim("personality_traits", 230, "ext", "Extroversion", "How outgoing, assertive and energetic the person tends to be.", false, [
        ["ext-assert", "Assertiveness", "Taking charge and voicing opinions.", "Lets others lead", "Takes the lead and speaks up"],
        ["ext-soc", "Sociability", "Enjoyment of company and meeting new people.", "Prefers small groups or working alone", "Energized by people and conversation"],
        ["ext-en", "Energy", "Pace and liveliness in daily activity.", "Works at a measured pace", "Keeps a brisk, active pace"]
      ]),
      dim("personality_traits", 240, "open", "Openness", "How curious, imaginative and receptive to new ideas the person tends to be.", false, [
        ["open-ana", "Intellectual Curiosity", "Interest in ideas, analysis and how things work.", "Prefers the practical and proven", "Enjoys digging into complex ideas"],
        ["open-cre", "Imagination", "Inventiveness and appreciation of new approaches.", "Favours familiar methods", "Generates original ideas and approaches"]
      ]),
      dim("career_interests", 300, "ci-real", "Realistic", "Interest in hands-on work with tools, machines, materials or the outdoors.", false, [
        ["ci-real-con", "Building and Repair", "Constructing, fixing and maintaining physical things."],
        ["ci-real-pro", "Production and Operations", "Running equipment and processes that make or move goods."],
        ["ci-real-eng", "Engineering and Technology", "Applying technical know-how to practical problems."]
      ]),
      dim("career_interests", 310, "ci-inv", "Investigative", "Interest in observing, analysing and solving problems through study.", false, [
        ["ci-inv-soft", "Social Science", "Studying how people, groups and societies behave."],
        ["ci-inv-ana", "Analysis and Research", "Gathering data and testing ideas systematically."],
        ["ci-inv-med", "Health Science", "Understanding the body, illness and treatment."]
      ]),
      dim("career_interests", 320, "ci-art", "Artistic", "Interest in self-expression, design and original work.", false, [
        ["ci-art-cre", "Visual and Performing Arts", "Creating art, music, design or performance."],
        ["ci-art-wri", "Writing and Media", "Crafting stories, articles and other written content."]
      ]),
      dim("career_interests", 330, "ci-soc", "Social", "Interest in helping, teaching and caring for people.", false, [
        ["ci-soc-tea", "Teaching", "Explaining things and helping others learn."],
        ["ci-soc-ser", "Service", "Looking after the needs of customers and the public."],
        ["ci-soc-cou", "Counselling", "Guiding people through personal or work challenges."]
      ]),
      dim("career_interests", 340, "ci-ent", "Enterprising", "Interest in leading, persuading and running ventures.", false, [
        ["ci-ent-man", "Management", "Directing people, budgets and projects."],
        ["ci-ent-sal", "Sales and Persuasion", "Winning people over to a product or an idea."]
      ]),
      dim("career_interests", 350, "ci-con", "Conventional", "Interest in orderly work with data, records and clear procedures.", false, [
        ["ci-con-adm", "Administration", "Keeping records, schedules and office processes running."],
        ["ci-con-fin", "Finance and Accounting", "Handling figures, budgets and financial records."]
      ]),
      dim("career_interests", 360, "ci-overall", "Interest Match", "How closely the person's interest code matches the score profile's code.", true, [
        ["ci-flm", "One-Letter Match", "How the person's strongest interest compares with the profile's leading interest."],
        ["ci-2lm", "Two-Letter Match", "How the person's two strongest interests compare with the profile's first two."]
      ])
    ];
    ALL_SCORE_SHORT_NAMES = DIMENSIONS.flatMap((d2) => [
      d2.short_name,
      ...d2.facets.map((f) => f.short_name)
    ]);
    byShortName = /* @__PURE__ */ new Map();
    for (const d2 of DIMENSIONS) {
      byShortName.set(d2.short_name, d2);
      for (const f of d2.facets) byShortName.set(f.short_name, f);
    }
    CAREER_INTEREST_TYPES = [
      { letter: "R", name: "Realistic", short_name: "ci-real" },
      { letter: "I", name: "Investigative", short_name: "ci-inv" },
      { letter: "A", name: "Artistic", short_name: "ci-art" },
      { letter: "S", name: "Social", short_name: "ci-soc" },
      { letter: "E", name: "Enterprising", short_name: "ci-ent" },
      { letter: "C", name: "Conventional", short_name: "ci-con" }
    ];
    PERSONALITY_TRAITS = [
      { short_name: "agree", name: "Agreeableness" },
      { short_name: "con", name: "Conscientiousness" },
      { short_name: "emot", name: "Emotional Stability" },
      { short_name: "ext", name: "Extroversion" },
      { short_name: "open", name: "Openness" }
    ];
    TRAIT_KEYS = ["agree", "con", "emot", "ext", "open"];
    JOB_FAMILY_ROWS = [
      [1010, "Software Development", 3, "ICR", "57567", "13013"],
      [1010, "Software Development", 4, "ICE", "58568", "13113"],
      [1020, "Data Analysis", 4, "ICE", "58458", "02012"],
      [1030, "Network and Systems Support", 3, "RIC", "57546", "02111"],
      [1040, "Cybersecurity", 4, "ICR", "48656", "03112"],
      [1110, "Electrical and Electronics Engineering", 4, "RIC", "58557", "03012"],
      [1120, "Civil Engineering", 4, "RIC", "58557", "03112"],
      [1130, "Mechanical Maintenance", 2, "RCI", "67545", "12101"],
      [1130, "Mechanical Maintenance", 3, "RCI", "68545", "12111"],
      [1210, "Construction Trades", 2, "RCE", "66555", "12101"],
      [1220, "Skilled Manufacturing", 2, "RCI", "67545", "12101"],
      [1230, "Transportation and Delivery", 1, "RCS", "66544", "12200"],
      [1240, "Warehouse and Logistics", 1, "RCE", "67554", "12101"],
      [1250, "Agriculture and Grounds", 2, "RIC", "65644", "11101"],
      [1310, "Protective Services", 3, "RSE", "58766", "12311"],
      [1320, "Firefighting and Rescue", 2, "RSE", "78776", "12311"],
      [2010, "Nursing", 3, "SIC", "88756", "33211"],
      [2010, "Nursing", 4, "SIC", "88766", "33212"],
      [2020, "Medical Technology", 3, "IRC", "68546", "13101"],
      [2030, "Personal Care and Support", 2, "SRC", "96765", "32211"],
      [2040, "Pharmacy Services", 3, "CIS", "68645", "13101"],
      [2110, "Teaching", 4, "SAE", "87777", "22222"],
      [2120, "Training and Development", 4, "SEA", "77777", "22122"],
      [2130, "Counselling and Social Work", 5, "SIA", "97767", "31212"],
      [2140, "Childcare", 2, "SAR", "97765", "32211"],
      [3010, "Sales Representatives", 2, "ESC", "57788", "11232"],
      [3010, "Sales Representatives", 3, "ECS", "57897", "11333"],
      [3020, "Retail Sales", 1, "ESC", "76776", "21131"],
      [3030, "Customer Service", 2, "SEC", "87765", "32221"],
      [3040, "Marketing and Communications", 4, "EAI", "67779", "11223"],
      [3110, "General Management", 4, "ECS", "58877", "13222"],
      [3110, "General Management", 5, "ECI", "59887", "13323"],
      [3120, "Project Management", 4, "ECI", "69767", "23212"],
      [3130, "Human Resources", 4, "SEC", "87767", "22212"],
      [3140, "Hospitality Management", 3, "ESR", "77876", "22232"],
      [4010, "Accounting and Auditing", 4, "CEI", "59644", "13100"],
      [4020, "Bookkeeping and Clerical Finance", 2, "CER", "68543", "13100"],
      [4030, "Office Administration", 2, "CES", "78654", "23111"],
      [4040, "Banking and Lending", 3, "CES", "68664", "13121"],
      [4050, "Legal Support", 4, "CEI", "68655", "13111"],
      [5010, "Graphic and Digital Design", 3, "AER", "66559", "11103"],
      [5020, "Writing and Editing", 4, "AIS", "66549", "11103"],
      [5030, "Performing Arts", 3, "AES", "65689", "11123"],
      [5040, "Culinary Arts", 2, "ARE", "67667", "12112"],
      [6010, "Scientific Research", 5, "IRA", "58449", "02003"],
      [6020, "Physicians and Surgeons", 5, "ISR", "79757", "23212"]
    ];
    JOB_FAMILIES = JOB_FAMILY_ROWS.map(([num, name, zone, riasec, t, w]) => ({
      job_family_number: `JF-${num}`,
      job_family_name: `${name} (Zone ${zone})`,
      job_family_job_zone: zone,
      riasec,
      traits: traits(t, w),
      // Higher zones ask more of reasoning; used only when Thinking is complete.
      thinking: { min: zone + 3, weight: zone >= 4 ? 2 : 1 }
    }));
    SCORE_PROFILE_ROWS = [
      [501, "Sales Representative", "sales-rep", "ESC", "57897", "11332", 5, 1],
      [502, "Customer Service Agent", "customer-service", "SEC", "87765", "32221", 4, 1],
      [503, "Software Engineer", "software-engineer", "ICR", "57568", "13013", 7, 3],
      [504, "Registered Nurse", "registered-nurse", "SIC", "88756", "33211", 6, 2],
      [505, "Staff Accountant", "accountant", "CEI", "59644", "13100", 6, 2],
      [506, "Project Manager", "project-manager", "ECI", "69767", "23212", 6, 2],
      [507, "Teacher", "teacher", "SAE", "87777", "22222", 6, 2],
      [508, "Warehouse Associate", "warehouse-associate", "RCE", "67554", "12101", 3, 1],
      [509, "Graphic Designer", "graphic-designer", "AER", "66559", "11103", 5, 1],
      [510, "Data Analyst", "data-analyst", "ICE", "58458", "02012", 7, 3]
    ];
    SCORE_PROFILES = SCORE_PROFILE_ROWS.map(
      ([id2, display_name, short_name, riasec, t, w, min, weight]) => ({
        id: id2,
        display_name,
        short_name,
        riasec_profile: riasec,
        riasec,
        traits: traits(t, w),
        thinking: { min, weight }
      })
    );
  }
});

// ../../../tmp/fairprof/main/src/stub/random.ts
function hashString(s) {
  let h2 = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h2 ^= s.charCodeAt(i);
    h2 = Math.imul(h2, 16777619);
  }
  return h2 >>> 0;
}
function mulberry32(seed2) {
  let a = seed2 >>> 0;
  return () => {
    a = a + 1831565813 >>> 0;
    let t = a;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}
var init_random = __esm({
  "../../../tmp/fairprof/main/src/stub/random.ts"() {
    "use strict";
  }
});

// ../../../tmp/fairprof/main/src/stub/scoring.ts
function rngFor(seed2) {
  return mulberry32(hashString(seed2));
}
function roundTo(x, places) {
  const f = 10 ** places;
  return Math.sign(x) * (Math.round(Math.abs(x) * f + 1e-9) / f);
}
function has(completed, id2) {
  return completed.includes(id2);
}
function scoreDimension(seed2, d2) {
  const rng = rngFor(`${seed2}|${d2.short_name}`);
  const latent = 1 + 9 * ((rng() + rng()) / 2);
  const out = {};
  let sum = 0;
  for (const f of d2.facets) {
    const s = clamp(Math.round(latent + (rng() - 0.5) * 4), 1, 10);
    out[f.short_name] = s;
    sum += s;
  }
  out[d2.short_name] = clamp(Math.round(sum / d2.facets.length), 1, 10);
  return out;
}
function rawScores(seed2, completed) {
  let thinking = null;
  const think = dimensionsOf("thinking_skills")[0];
  if (has(completed, TEST_ID.thinking)) {
    thinking = scoreDimension(seed2, think);
  } else if (has(completed, TEST_ID.prescreen)) {
    const full = scoreDimension(seed2, think);
    thinking = { [think.short_name]: full[think.short_name] };
    for (const f of think.facets) thinking[f.short_name] = null;
  }
  let personality = null;
  if (has(completed, TEST_ID.personality)) {
    personality = {};
    for (const d2 of dimensionsOf("personality_traits")) Object.assign(personality, scoreDimension(seed2, d2));
  }
  let interests = null;
  if (has(completed, TEST_ID.interests)) {
    interests = {};
    for (const d2 of dimensionsOf("career_interests")) {
      if (d2.short_name === "ci-overall") continue;
      Object.assign(interests, scoreDimension(seed2, d2));
    }
  }
  return { thinking, personality, interests };
}
function rankedInterests(interests) {
  return CAREER_INTEREST_TYPES.map((t, i) => ({ t, i, s: interests[t.short_name] })).sort(
    (a, b) => b.s - a.s || a.i - b.i
  );
}
function riasecFromScores(interests) {
  return rankedInterests(interests).slice(0, 3).map((x) => x.t.letter).join("");
}
function riasecOf(seed2, completed) {
  const { interests } = rawScores(seed2, completed);
  return interests ? riasecFromScores(interests) : null;
}
function oneLetterMatch(taker, profile) {
  if (taker[0] === profile[0]) return 3;
  if (profile.slice(1).includes(taker[0]) || taker.slice(1).includes(profile[0])) return 2;
  return 1;
}
function twoLetterMatch(taker, profile) {
  const a = taker.slice(0, 2);
  const b = profile.slice(0, 2);
  const shared = [...a].filter((c) => b.includes(c)).length;
  return shared >= 2 ? 3 : shared === 1 ? 2 : 1;
}
function rawFit(raw, target) {
  if (!raw.personality || !raw.interests) return null;
  let pw = 0;
  let ps = 0;
  for (const k of TRAIT_KEYS) {
    const { target: t, weight } = target.traits[k];
    ps += weight * (1 - Math.abs(raw.personality[k] - t) / 9);
    pw += weight;
  }
  const personality = pw === 0 ? 1 : ps / pw;
  const code = riasecFromScores(raw.interests);
  const match = (oneLetterMatch(code, target.riasec) + twoLetterMatch(code, target.riasec) - 2) / 4;
  let strength = 0;
  [3, 2, 1].forEach((w, i) => {
    const type = CAREER_INTEREST_TYPES.find((t) => t.letter === target.riasec[i]);
    if (type) strength += w * (raw.interests[type.short_name] - 1) / 9;
  });
  const interests = 0.5 * match + 0.5 * (strength / 6);
  let total = 4 * personality + 5 * interests;
  let weights = 9;
  const think = raw.thinking?.think;
  if (think != null && target.thinking && target.thinking.weight > 0) {
    const t = think >= target.thinking.min ? 1 : Math.max(0, 1 - (target.thinking.min - think) / 5);
    total += target.thinking.weight * t;
    weights += target.thinking.weight;
  }
  return total / weights;
}
function percentageFromRaw(fitscoreRaw) {
  return roundTo(100 / (1 + Math.exp(-(fitscoreRaw - 0.6) * 14)), 1);
}
function starsFromPercentage(pct) {
  if (pct >= 80) return 5;
  if (pct >= 60) return 4;
  if (pct >= 40) return 3;
  if (pct >= 20) return 2;
  return 1;
}
function fitOf(raw, target) {
  const r = rawFit(raw, target);
  if (r === null) return { fitscore_raw: null, job_fit_percentage: null, five_star_score: null };
  const fitscore_raw = roundTo(r, 3);
  const job_fit_percentage = percentageFromRaw(fitscore_raw);
  return { fitscore_raw, job_fit_percentage, five_star_score: starsFromPercentage(job_fit_percentage) };
}
function fitFor(seed2, completed, scoreProfile) {
  if (!scoreProfile) return { fitscore_raw: null, job_fit_percentage: null, five_star_score: null };
  return fitOf(rawScores(seed2, completed), scoreProfile);
}
function scoreObject(def, score) {
  return {
    object: "score",
    id: def.id,
    display_name: def.display_name,
    short_name: def.short_name,
    description: def.description,
    is_starred: def.is_starred,
    yellow_band: def.yellow_band,
    test_taker_score: score
  };
}
function sectionScores(section, values) {
  return dimensionsOf(section).map((d2) => ({
    ...scoreObject(d2, values[d2.short_name] ?? null),
    facets: d2.facets.map((f) => scoreObject(f, values[f.short_name] ?? null))
  }));
}
function scoresFor(seed2, completed, scoreProfile) {
  const raw = rawScores(seed2, completed);
  let careerInterests = null;
  if (raw.interests) {
    const values = { ...raw.interests };
    if (scoreProfile) {
      const code = riasecFromScores(raw.interests);
      const flm = oneLetterMatch(code, scoreProfile.riasec_profile);
      const tlm = twoLetterMatch(code, scoreProfile.riasec_profile);
      values["ci-flm"] = flm;
      values["ci-2lm"] = tlm;
      values["ci-overall"] = flm + tlm;
    }
    careerInterests = sectionScores("career_interests", values);
  }
  return {
    thinking_skills: raw.thinking ? sectionScores("thinking_skills", raw.thinking) : null,
    personality_traits: raw.personality ? sectionScores("personality_traits", raw.personality) : null,
    career_interests: careerInterests,
    skill_survey_reference: null,
    structured_interview: null
  };
}
function scorecardParts(seed2, completed, scoreProfile) {
  const fit = fitFor(seed2, completed, scoreProfile);
  return {
    fitscore_raw: fit.fitscore_raw,
    five_star_score: fit.five_star_score,
    job_fit_percentage: fit.job_fit_percentage,
    riasec_profile: riasecOf(seed2, completed),
    scores: scoresFor(seed2, completed, scoreProfile)
  };
}
var clamp;
var init_scoring = __esm({
  "../../../tmp/fairprof/main/src/stub/scoring.ts"() {
    "use strict";
    init_catalog2();
    init_random();
    clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));
  }
});

// ../../../tmp/fairprof/main/src/stub/views.ts
function assessmentRef(testId2) {
  return ASSESSMENT_REFS.get(testId2) ?? { id: testId2, display_name: `Assessment ${testId2}`, short_name: String(testId2) };
}
function cached(store2, key, load) {
  if (store2.refCache.has(key)) return store2.refCache.get(key);
  const v = load();
  if (v !== null && v !== void 0) store2.refCache.set(key, v);
  return v;
}
function teamRef(store2, id2) {
  return cached(store2, `team:${id2}`, () => {
    const t = store2.get("SELECT id, display_name FROM teams WHERE id = ?", id2);
    return t ? { id: t.id, display_name: t.display_name } : null;
  }) ?? { id: id2, display_name: "" };
}
function accountRef(store2, id2) {
  return cached(store2, `account:${id2}`, () => {
    const a = store2.get("SELECT id, display_name FROM accounts WHERE id = ?", id2);
    return a ? { id: a.id, display_name: a.display_name } : null;
  }) ?? { id: id2, display_name: "" };
}
function templateRef(store2, id2) {
  if (id2 === null) return null;
  return cached(store2, `template:${id2}`, () => {
    const t = store2.get("SELECT id, display_name FROM templates WHERE id = ?", id2);
    return t ? { id: t.id, display_name: t.display_name } : null;
  });
}
function userRef(store2, id2) {
  if (id2 === null) return null;
  return cached(store2, `user:${id2}`, () => {
    const u = store2.get("SELECT * FROM users WHERE id = ?", id2);
    return u ? { id: u.id, first_name: u.first_name, last_name: u.last_name, email: u.email } : null;
  });
}
function scoreProfileRefById(id2) {
  if (id2 === null) return null;
  const p = SCORE_PROFILES.find((x) => x.id === id2);
  return p ? { id: p.id, display_name: p.display_name, short_name: p.short_name } : null;
}
function scoreSeed(accountId, testTakerId) {
  return `${accountId}:${testTakerId}`;
}
function completedTests(store2, testTakerId) {
  return store2.all("SELECT test_id FROM assigned_assessments WHERE test_taker_id = ? AND completed_at IS NOT NULL ORDER BY position", testTakerId).map((r) => r.test_id);
}
function profileOfTaker(store2, testTakerId) {
  return store2.get("SELECT * FROM career_navigation_profiles WHERE test_taker_id = ?", testTakerId);
}
function resultUrls(store2, origin, token, testTakerId) {
  if (testTakerId === null) {
    return { scorecard_url: null, job_fit_summary_url: null, career_options_spotlight_url: null, career_navigation_url: null, career_navigation_profile_id: null };
  }
  return urlsOf(origin, token, completedTests(store2, testTakerId), profileOfTaker(store2, testTakerId));
}
function urlsOf(origin, token, done, profile) {
  const interests = done.includes(TEST_ID.interests);
  const jobFit = interests && done.includes(TEST_ID.personality);
  return {
    scorecard_url: `${origin}/results/${token}/scorecard`,
    job_fit_summary_url: jobFit ? `${origin}/results/${token}/job-fit-summary` : null,
    career_options_spotlight_url: interests ? `${origin}/results/${token}/career-options` : null,
    career_navigation_url: profile ? careerNavigationUrl(origin, profile.id) : null,
    career_navigation_profile_id: profile?.id ?? null
  };
}
function careerNavigationUrl(origin, profileId) {
  return `${origin}/career/${encodeURIComponent(profileId)}`;
}
function assessmentUrl(origin, token) {
  return `${origin}/take/${token}`;
}
function invitationTests(store2, invitationId) {
  return store2.all("SELECT test_id FROM invitation_assessments WHERE invitation_id = ? ORDER BY position", invitationId).map((r) => r.test_id);
}
function invitationObject(store2, row, mode, origin, tests) {
  const urls = resultUrls(store2, origin, row.token, row.test_taker_id);
  return {
    mode,
    object: "invitation",
    id: row.id,
    invited_by_user: userRef(store2, row.invited_by_user_id),
    created_at: row.created_at,
    accepted_at: row.accepted_at,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    send_via_email: row.send_via_email === 1,
    phone: row.phone,
    send_via_sms: row.send_via_sms === 1,
    custom_id: row.custom_id,
    person_id: row.person_id,
    invitation_email_template: templateRef(store2, row.invitation_template_id),
    ref_text: row.ref_text,
    congrats_email_template: templateRef(store2, row.congrats_template_id),
    send_congrats_notification: row.send_congrats_notification === 1,
    target_score_profile: scoreProfileRefById(row.target_score_profile_id),
    invitation_assessments: (tests ?? invitationTests(store2, row.id)).map(assessmentRef),
    assessment_url: assessmentUrl(origin, row.token),
    career_navigation_url: urls.career_navigation_url,
    scorecard_url: urls.scorecard_url,
    job_fit_summary_url: urls.job_fit_summary_url,
    career_options_spotlight_url: urls.career_options_spotlight_url,
    team: teamRef(store2, row.team_id),
    account: accountRef(store2, row.account_id),
    test_taker_id: row.test_taker_id,
    career_navigation_profile_id: urls.career_navigation_profile_id
  };
}
function invitationListItem(row, origin) {
  return {
    object: "invitation_list_item",
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    created_at: row.created_at,
    accepted_at: row.accepted_at,
    assessment_url: assessmentUrl(origin, row.token),
    test_taker_id: row.test_taker_id,
    custom_id: row.custom_id,
    person_id: row.person_id,
    team: { id: row.team_id, display_name: row.team_name },
    account: { id: row.account_id, display_name: row.account_name }
  };
}
function testTakerListItem(row) {
  return {
    object: "test_taker_list_item",
    id: row.id,
    invitation_id: row.invitation_id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    created_at: row.created_at,
    custom_id: row.custom_id,
    person_id: row.person_id,
    team: { id: row.team_id, display_name: row.team_name },
    account: { id: row.account_id, display_name: row.account_name }
  };
}
function testTakerObject(store2, tt, mode, origin, links) {
  const { token, profile } = links ?? { token: store2.get("SELECT token FROM invitations WHERE id = ?", tt.invitation_id)?.token ?? "", profile: profileOfTaker(store2, tt.id) };
  const assigned = store2.all(
    "SELECT id, test_id, completed_at, language FROM assigned_assessments WHERE test_taker_id = ? ORDER BY position",
    tt.id
  );
  const urls = urlsOf(origin, token, assigned.filter((a) => a.completed_at !== null).map((a) => a.test_id), profile);
  return {
    mode,
    object: "test_taker",
    id: tt.id,
    person_id: tt.person_id,
    custom_id: tt.custom_id,
    invitation_id: tt.invitation_id,
    phone: tt.phone,
    assigned_assessments: assigned.map((a) => ({
      id: a.id,
      completed_at: a.completed_at,
      language: a.language,
      assessment: assessmentRef(a.test_id)
    })),
    scorecard_url: urls.scorecard_url,
    job_fit_summary_url: urls.job_fit_summary_url,
    career_navigation_url: urls.career_navigation_url,
    career_navigation_profile_id: urls.career_navigation_profile_id
  };
}
function profileContent(accountId, testTakerId) {
  const code = riasecOf(scoreSeed(accountId, testTakerId), [TEST_ID.interests]) ?? "RIA";
  const names = [...code].map((l) => CAREER_INTEREST_TYPES.find((t) => t.letter === l)?.name ?? l);
  let best = JOB_FAMILIES[0];
  let bestScore = -1;
  for (const jf of JOB_FAMILIES) {
    const s = oneLetterMatch(code, jf.riasec) * 10 + twoLetterMatch(code, jf.riasec);
    if (s > bestScore) {
      best = jf;
      bestScore = s;
    }
  }
  const jobName = best.job_family_name.replace(/ \(Zone \d\)$/, "");
  return {
    exercises: { strengthsCareerInterests: names.join(", "), targetJobName: jobName },
    plan_job_1: { jobName, onetCode: onetCodeOf(best.job_family_number, best.job_family_job_zone) }
  };
}
function onetCodeOf(familyNumber, zone) {
  const n = familyNumber.replace(/\D/g, "").padStart(4, "0");
  return `${11 + Number(n) % 43}-${n}.0${zone}`;
}
function profileObject(store2, p, mode, origin) {
  const tt = store2.get("SELECT person_id FROM test_takers WHERE id = ?", p.test_taker_id);
  return {
    mode,
    object: "career_navigation_profile",
    id: p.id,
    person_id: tt?.person_id ?? null,
    test_taker_id: p.test_taker_id,
    career_navigation_url: careerNavigationUrl(origin, p.id),
    ...profileContent(p.account_id, p.test_taker_id)
  };
}
function profileListItem(p, origin) {
  return {
    object: "career_navigation_profile_list_item",
    id: p.id,
    test_taker_id: p.test_taker_id,
    custom_id: p.custom_id,
    person_id: p.person_id,
    career_navigation_url: careerNavigationUrl(origin, p.id),
    created_at: p.created_at
  };
}
function minimalTestTakerListItem(it) {
  return { id: it.id, custom_id: it.custom_id, person_id: it.person_id, team: it.team, account: it.account };
}
function minimalProfileListItem(it) {
  return { id: it.id, custom_id: it.custom_id, person_id: it.person_id };
}
var ASSESSMENT_REFS;
var init_views = __esm({
  "../../../tmp/fairprof/main/src/stub/views.ts"() {
    "use strict";
    init_catalog2();
    init_scoring();
    ASSESSMENT_REFS = new Map(
      ASSESSMENTS.map((a) => [a.id, { id: a.id, display_name: a.display_name, short_name: a.short_name }])
    );
  }
});

// ../../../tmp/fairprof/main/src/stub/routes/call.ts
function list(c, data, total = data.length) {
  return json(200, { mode: c.auth.mode, object: "list", total_count: total, has_more: total > data.length, data });
}
function pathId(s) {
  return /^\d{1,15}$/.test(s) ? Number(s) : null;
}
function ref(c, key, load) {
  let v = c.refs.get(key);
  if (v === void 0) {
    v = load();
    if (v !== void 0) c.refs.set(key, v);
  }
  return v;
}
function teamOfAccount(c, teamId) {
  return ref(
    c,
    `team:${c.auth.accountId}:${teamId}`,
    () => c.store.get("SELECT id, display_name FROM teams WHERE id = ? AND account_id = ?", teamId, c.auth.accountId)
  );
}
var init_call = __esm({
  "../../../tmp/fairprof/main/src/stub/routes/call.ts"() {
    "use strict";
    init_reply();
  }
});

// ../../../tmp/fairprof/main/src/stub/routes/users.ts
var users_exports = {};
__export(users_exports, {
  listUsers: () => listUsers
});
function userObject(c, u) {
  const tests = JSON.parse(u.default_test_ids);
  return {
    object: "user",
    id: u.id,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    default_team: u.default_team_id === null ? null : teamRef(c.store, u.default_team_id),
    default_assessments: tests.map(assessmentRef),
    default_invitation_email_template: templateRef(c.store, u.default_invitation_template_id),
    default_congrats_email_template: templateRef(c.store, u.default_congrats_template_id),
    default_scheduling_link: u.default_scheduling_link
  };
}
function listUsers(c) {
  const users = c.store.all("SELECT * FROM users WHERE account_id = ? ORDER BY id", c.auth.accountId);
  return list(c, users.map((u) => userObject(c, u)));
}
var init_users = __esm({
  "../../../tmp/fairprof/main/src/stub/routes/users.ts"() {
    "use strict";
    init_views();
    init_call();
  }
});

// ../../../tmp/fairprof/main/src/stub/routes/teams.ts
var teams_exports = {};
__export(teams_exports, {
  listTeams: () => listTeams
});
function listTeams(c) {
  const live = c.auth.mode === "live";
  const rows = c.store.all(
    `SELECT t.id, t.display_name,
       (SELECT COUNT(*) FROM user_teams ut WHERE ut.team_id = t.id) AS users_count,
       (SELECT COUNT(*) FROM invitations i WHERE i.team_id = t.id) AS invitations_count,
       (SELECT COUNT(*) FROM test_takers tt WHERE tt.team_id = t.id) AS test_takers_count
     FROM teams t WHERE t.account_id = ? ORDER BY t.id`,
    c.auth.accountId
  );
  const data = rows.map((r) => ({
    object: "team_list_item",
    id: r.id,
    display_name: r.display_name,
    users_count: r.users_count,
    // Test mode stores nothing, so its teams hold no invitations or test takers.
    invitations_count: live ? r.invitations_count : 0,
    test_takers_count: live ? r.test_takers_count : 0
  }));
  return list(c, data);
}
var init_teams = __esm({
  "../../../tmp/fairprof/main/src/stub/routes/teams.ts"() {
    "use strict";
    init_call();
  }
});

// ../../../tmp/fairprof/main/src/stub/routes/templates.ts
var templates_exports = {};
__export(templates_exports, {
  listEmailTemplates: () => listEmailTemplates
});
function listEmailTemplates(c) {
  const rows = c.store.all(
    "SELECT id, display_name, template_type FROM templates WHERE account_id = ? ORDER BY id",
    c.auth.accountId
  );
  const data = rows.map((t) => ({
    object: "email_template",
    id: t.id,
    display_name: t.display_name,
    template_type: t.template_type,
    teams: c.store.all(
      "SELECT t.id, t.display_name FROM template_teams tt JOIN teams t ON t.id = tt.team_id WHERE tt.template_id = ? ORDER BY t.id",
      t.id
    )
  }));
  return list(c, data);
}
var init_templates = __esm({
  "../../../tmp/fairprof/main/src/stub/routes/templates.ts"() {
    "use strict";
    init_call();
  }
});

// ../../../tmp/fairprof/main/src/stub/fakes.ts
function fakeToken(id2) {
  return `test_${hashString(`fake:${id2}`).toString(36)}`;
}
function fakeProfileId(testTakerId) {
  return `cnp_test${hashString(`cnp:${testTakerId}`).toString(36).padStart(8, "0")}`;
}
function fakeId(key) {
  return 9e8 + hashString(key) % 99999999;
}
function fakeUrls(origin, token, testTakerId) {
  if (testTakerId === null) {
    return { scorecard_url: null, job_fit_summary_url: null, career_options_spotlight_url: null, career_navigation_url: null, career_navigation_profile_id: null };
  }
  const profileId = fakeProfileId(testTakerId);
  return {
    scorecard_url: `${origin}/results/${token}/scorecard`,
    job_fit_summary_url: `${origin}/results/${token}/job-fit-summary`,
    career_options_spotlight_url: `${origin}/results/${token}/career-options`,
    career_navigation_url: careerNavigationUrl(origin, profileId),
    career_navigation_profile_id: profileId
  };
}
function fakeInvitation(ctx, id2, fields = {}) {
  const token = fakeToken(id2);
  const accepted = fields.accepted_at !== void 0 ? fields.accepted_at !== null : false;
  const testTakerId = accepted ? id2 + 1 : null;
  const urls = fakeUrls(ctx.origin, token, testTakerId);
  return {
    mode: "test",
    object: "invitation",
    id: id2,
    invited_by_user: null,
    created_at: ctx.now,
    accepted_at: null,
    ...FAKE_PERSON,
    send_via_email: true,
    phone: null,
    send_via_sms: false,
    custom_id: null,
    person_id: null,
    invitation_email_template: null,
    ref_text: null,
    congrats_email_template: null,
    send_congrats_notification: false,
    target_score_profile: null,
    invitation_assessments: [TEST_ID.personality, TEST_ID.thinking, TEST_ID.interests].map(assessmentRef),
    assessment_url: assessmentUrl(ctx.origin, token),
    career_navigation_url: urls.career_navigation_url,
    scorecard_url: urls.scorecard_url,
    job_fit_summary_url: urls.job_fit_summary_url,
    career_options_spotlight_url: urls.career_options_spotlight_url,
    team: ctx.team,
    account: ctx.account,
    test_taker_id: testTakerId,
    career_navigation_profile_id: urls.career_navigation_profile_id,
    ...fields
  };
}
function fakeInvitationListItem(ctx, filters) {
  const id2 = fakeId(`inv:${filters.custom_id ?? ""}:${filters.email ?? ""}`);
  return {
    object: "invitation_list_item",
    id: id2,
    ...FAKE_PERSON,
    email: fakeEmail(filters.email),
    created_at: ctx.now,
    accepted_at: null,
    assessment_url: assessmentUrl(ctx.origin, fakeToken(id2)),
    test_taker_id: null,
    custom_id: filters.custom_id ?? null,
    person_id: null,
    team: ctx.team,
    account: ctx.account
  };
}
function fakeEmail(filter) {
  if (!filter) return FAKE_PERSON.email;
  return filter.includes("@") ? filter : `test.${filter.replace(/[^A-Za-z0-9._+-]/g, "") || "participant"}@example.com`;
}
function fakeTestTakerListItem(ctx, filters) {
  const id2 = fakeId(`tt:${filters.custom_id ?? ""}:${filters.email ?? ""}`);
  return {
    object: "test_taker_list_item",
    id: id2,
    invitation_id: id2 - 1,
    ...FAKE_PERSON,
    email: fakeEmail(filters.email),
    created_at: ctx.now,
    custom_id: filters.custom_id ?? null,
    person_id: null,
    team: ctx.team,
    account: ctx.account
  };
}
function fakeTestTaker(ctx, id2) {
  const urls = fakeUrls(ctx.origin, fakeToken(id2 - 1), id2);
  return {
    mode: "test",
    object: "test_taker",
    id: id2,
    person_id: null,
    custom_id: null,
    invitation_id: id2 - 1,
    phone: null,
    assigned_assessments: FAKE_TESTS.map((t, i) => ({ id: id2 * 10 + i, completed_at: ctx.now, language: "en", assessment: assessmentRef(t) })),
    scorecard_url: urls.scorecard_url,
    job_fit_summary_url: urls.job_fit_summary_url,
    career_navigation_url: urls.career_navigation_url,
    career_navigation_profile_id: urls.career_navigation_profile_id
  };
}
function fakeResultSubject(ctx, testTakerId) {
  const token = fakeToken(testTakerId - 1);
  const urls = fakeUrls(ctx.origin, token, testTakerId);
  return {
    test_taker_id: testTakerId,
    invitation_id: testTakerId - 1,
    custom_id: null,
    person_id: null,
    career_navigation_profile_id: urls.career_navigation_profile_id,
    ...FAKE_PERSON,
    phone: null,
    assessment_url: assessmentUrl(ctx.origin, token),
    career_navigation_url: urls.career_navigation_url,
    scorecard_url: urls.scorecard_url,
    job_fit_summary_url: urls.job_fit_summary_url,
    career_options_spotlight_url: urls.career_options_spotlight_url,
    team: ctx.team,
    account: ctx.account,
    seed: `test:${testTakerId}`,
    completed: FAKE_TESTS
  };
}
function fakeProfile(ctx, id2) {
  const testTakerId = fakeId(`cnp:${id2}`);
  return {
    mode: "test",
    object: "career_navigation_profile",
    id: id2,
    person_id: null,
    test_taker_id: testTakerId,
    career_navigation_url: careerNavigationUrl(ctx.origin, id2),
    ...profileContent(0, testTakerId)
  };
}
function fakeProfileListItem(ctx) {
  const testTakerId = fakeId("cnp-list");
  const id2 = fakeProfileId(testTakerId);
  return {
    object: "career_navigation_profile_list_item",
    id: id2,
    test_taker_id: testTakerId,
    custom_id: null,
    person_id: null,
    career_navigation_url: careerNavigationUrl(ctx.origin, id2),
    created_at: ctx.now
  };
}
var FAKE_PERSON, FAKE_TESTS;
var init_fakes = __esm({
  "../../../tmp/fairprof/main/src/stub/fakes.ts"() {
    "use strict";
    init_catalog2();
    init_random();
    init_views();
    FAKE_PERSON = { first_name: "Test", last_name: "Participant", email: "test.participant@example.com" };
    FAKE_TESTS = [TEST_ID.personality, TEST_ID.thinking, TEST_ID.interests];
  }
});

// ../../../tmp/fairprof/main/src/api/limits.ts
function listCap(query) {
  return query.custom_id || query.email ? LIST_CAP_FILTERED : LIST_CAP;
}
function charLength(text) {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
var LIST_CAP, LIST_CAP_FILTERED, CUSTOM_ID_MAX;
var init_limits = __esm({
  "../../../tmp/fairprof/main/src/api/limits.ts"() {
    "use strict";
    LIST_CAP = 50;
    LIST_CAP_FILTERED = 150;
    CUSTOM_ID_MAX = 50;
  }
});

// ../../../tmp/fairprof/main/src/stub/search-index.ts
function schemaOf(t) {
  const s = searchTable(t);
  return `
CREATE VIRTUAL TABLE IF NOT EXISTS ${s} USING fts5(email, custom_id, content='${t}', content_rowid='id', tokenize='trigram', columnsize=0);
CREATE TRIGGER IF NOT EXISTS ${s}_delete AFTER DELETE ON ${t} BEGIN
  INSERT INTO ${s} (${s}, rowid, email, custom_id) VALUES ('delete', old.id, old.email, old.custom_id);
END;
CREATE TRIGGER IF NOT EXISTS ${s}_update AFTER UPDATE OF email, custom_id ON ${t} BEGIN
  INSERT INTO ${s} (${s}, rowid, email, custom_id) VALUES ('delete', old.id, old.email, old.custom_id);
  INSERT INTO ${s} (rowid, email, custom_id) VALUES (new.id, new.email, new.custom_id);
END;`;
}
function ensureSearchIndex(db) {
  const have = new Set(
    db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${PEOPLE.map((t) => `'${searchTable(t)}'`).join(", ")})`).values()
  );
  for (const t of PEOPLE) {
    db.exec(schemaOf(t));
    if (!have.has(searchTable(t))) db.exec(`INSERT INTO ${searchTable(t)} (${searchTable(t)}) VALUES ('rebuild')`);
  }
}
function dropSearchIndex(db) {
  for (const t of PEOPLE) {
    const s = searchTable(t);
    for (const trig of ["delete", "update"]) db.exec(`DROP TRIGGER IF EXISTS ${s}_${trig}`);
    db.exec(`DROP TABLE IF EXISTS ${s}`);
  }
}
function trigramsOf(pattern) {
  const cps = [...pattern];
  const out = /* @__PURE__ */ new Set();
  for (let i = 0; i + INDEXED_MIN <= cps.length; i++) out.add(cps.slice(i, i + INDEXED_MIN).join(""));
  return [...out];
}
function docsOf(store2, table, column, trigram) {
  let cache = docCounts.get(store2);
  if (!cache || cache.size > DOC_COUNTS_MAX) {
    cache = /* @__PURE__ */ new Map();
    docCounts.set(store2, cache);
  }
  const key = `${table} ${column} ${trigram}`;
  let n = cache.get(key);
  if (n === void 0) {
    const vocab = `temp.${searchTable(table)}_terms`;
    store2.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${vocab} USING fts5vocab(main, ${searchTable(table)}, 'col')`);
    n = Number(store2.stmt(`SELECT doc FROM ${vocab} WHERE term = ? AND col = ?`).value(foldOf(trigram), column) ?? 0);
    cache.set(key, n);
  }
  return n;
}
function matchQuery(store2, table, terms) {
  const parts = [];
  for (const [column, pattern] of terms) {
    if (pattern === void 0 || !indexable(pattern)) continue;
    const rarest = trigramsOf(pattern).map((t) => ({ t, n: docsOf(store2, table, column, t) })).sort((a, b) => a.n - b.n).slice(0, ASKED);
    parts.push(`${column} : (${rarest.map(({ t }) => `"${t.replace(/"/g, '""')}"`).join(" AND ")})`);
  }
  return parts.length > 0 ? parts.join(" AND ") : null;
}
function indexPerson(store2, table, id2, email2, customId2) {
  store2.run(`INSERT INTO ${searchTable(table)} (rowid, email, custom_id) VALUES (?, ?, ?)`, id2, email2, customId2);
}
function indexFrom(store2, table, first) {
  store2.run(`INSERT INTO ${searchTable(table)} (rowid, email, custom_id) SELECT id, email, custom_id FROM ${table} WHERE id >= ?`, first);
}
var PEOPLE, searchTable, INDEXED_MIN, indexable, foldOf, docCounts, DOC_COUNTS_MAX, ASKED;
var init_search_index = __esm({
  "../../../tmp/fairprof/main/src/stub/search-index.ts"() {
    "use strict";
    init_limits();
    PEOPLE = ["invitations", "test_takers"];
    searchTable = (t) => `${t}_search`;
    INDEXED_MIN = 3;
    indexable = (pattern) => charLength(pattern) >= INDEXED_MIN && !pattern.includes("\0");
    foldOf = (t) => [...t].map((ch) => ch.toLowerCase().length === ch.length ? ch.toLowerCase() : ch).join("");
    docCounts = /* @__PURE__ */ new WeakMap();
    DOC_COUNTS_MAX = 5e4;
    ASKED = 2;
  }
});

// ../../../tmp/fairprof/main/src/core/errors.ts
var ExitCode, JobfitError, UsageError, STOP_SIGNALS;
var init_errors = __esm({
  "../../../tmp/fairprof/main/src/core/errors.ts"() {
    "use strict";
    ExitCode = {
      OK: 0,
      FAILURE: 1,
      USAGE: 2,
      PARTIAL: 3,
      AUTH: 4,
      /** The user answered "no" to a confirmation (a live invite, bulk or single): nothing was done. */
      DECLINED: 5,
      /** SIGHUP (the terminal closed): 128 + 1. */
      HANGUP: 129,
      INTERRUPTED: 130,
      /** SIGTERM (kill, a service manager, a CI timeout): 128 + 15. Also Windows' Ctrl-Break (SIGBREAK), its polite "stop". */
      TERMINATED: 143
    };
    JobfitError = class extends Error {
      exitCode;
      hint;
      constructor(message, opts = {}) {
        super(message, opts.cause === void 0 ? void 0 : { cause: opts.cause });
        this.name = new.target.name;
        this.exitCode = opts.exitCode ?? ExitCode.FAILURE;
        this.hint = opts.hint;
      }
    };
    UsageError = class extends JobfitError {
      constructor(message, hint) {
        super(message, { exitCode: ExitCode.USAGE, hint });
      }
    };
    STOP_SIGNALS = { SIGINT: ExitCode.INTERRUPTED, SIGTERM: ExitCode.TERMINATED, SIGHUP: ExitCode.HANGUP, SIGBREAK: ExitCode.TERMINATED };
  }
});

// ../../../tmp/fairprof/main/src/core/files.ts
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync
} from "node:fs";
function ensurePrivateDir(dir, opts = {}) {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!opts.tighten) return;
  const st = statSync(dir);
  if ((st.mode & 63) !== 0 && st.uid === process.getuid?.()) chmodSync(dir, st.mode & 448);
}
function ensurePrivateFile(path) {
  let fd;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, PRIVATE_FILE_MODE);
  } catch (err) {
    if (err.code === "ELOOP") throw Object.assign(new Error(`${path} is a symbolic link; not opening it`), { code: "ELOOP" });
    throw err;
  }
  try {
    const st = fstatSync(fd);
    if ((st.mode & 63) !== 0 && st.uid === process.getuid?.()) fchmodSync(fd, PRIVATE_FILE_MODE);
  } finally {
    closeSync(fd);
  }
}
var PRIVATE_DIR_MODE, PRIVATE_FILE_MODE;
var init_files = __esm({
  "../../../tmp/fairprof/main/src/core/files.ts"() {
    "use strict";
    init_errors();
    PRIVATE_DIR_MODE = 448;
    PRIVATE_FILE_MODE = 384;
  }
});

// ../../../tmp/fairprof/main/src/core/trust.ts
import { realpathSync, statSync as statSync2 } from "node:fs";
import { dirname, resolve } from "node:path";
function foldersAbove(path) {
  const out = [];
  const add = (start) => {
    for (let d2 = dirname(start); ; d2 = dirname(d2)) {
      if (!out.includes(d2)) out.push(d2);
      if (dirname(d2) === d2) break;
    }
  };
  const abs = resolve(path);
  add(abs);
  try {
    add(realpathSync(abs));
  } catch {
  }
  return out;
}
function fileProblem(st, path, what, uid) {
  const fixMode = st.isDirectory() ? "700" : "600";
  if (uid !== void 0 && st.uid !== uid) {
    return `${what} ${path} belongs to another user (uid ${st.uid}), who could change it: it is not used. Remove it (or, if it is yours, run \`chown ${uid} ${path}\`), or ELSEWHERE.`;
  }
  if ((st.mode & 18) !== 0) {
    return `${what} ${path} can be changed by ${who(st.mode)} (mode ${(st.mode & 511).toString(8)}): it is not used. Run \`chmod ${fixMode} ${path}\`.`;
  }
  return void 0;
}
function folderProblem(d2, dir, nearest, what, uid) {
  const name = nearest ? `The folder ${dir} of ${what.toLowerCase()}` : `The folder ${dir}, above ${what.toLowerCase()},`;
  const ownedOk = uid === void 0 || d2.uid === uid || d2.uid === 0;
  if (!ownedOk) return `${name} belongs to another user (uid ${d2.uid}), who could replace it: it is not used. ELSEWHERE_CAPITAL.`;
  const sticky = (d2.mode & 512) !== 0;
  if ((d2.mode & 18) !== 0 && !sticky) {
    const fix = nearest ? `Run \`chmod 700 ${dir}\`.` : "ELSEWHERE_CAPITAL.";
    return `${name} can be changed by ${who(d2.mode)} (mode ${(d2.mode & 511).toString(8)}), so it could be replaced: it is not used. ${fix}`;
  }
  return void 0;
}
function trustProblem(path, what, elsewhere = "set JOBFIT_CONFIG_DIR to a folder of yours", system = {}) {
  const platform = system.platform ?? process.platform;
  if (platform === "win32") return void 0;
  const uid = "uid" in system ? system.uid : process.getuid?.();
  const st = statOf(path);
  if (!st) return void 0;
  const fill = (s) => s?.replace("ELSEWHERE_CAPITAL", capital(elsewhere)).replace("ELSEWHERE", elsewhere);
  const own = fileProblem(st, path, what, uid);
  if (own) return fill(own);
  const nearest = dirname(resolve(path));
  for (const dir of foldersAbove(path)) {
    const d2 = statOf(dir);
    if (!d2) continue;
    const problem = folderProblem(d2, dir, dir === nearest, what, uid);
    if (problem) return fill(problem);
  }
  return void 0;
}
var capital, who, statOf;
var init_trust = __esm({
  "../../../tmp/fairprof/main/src/core/trust.ts"() {
    "use strict";
    capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);
    who = (m) => m & 2 ? "anyone on this machine" : "its group";
    statOf = (p) => {
      try {
        return statSync2(p, { throwIfNoEntry: false });
      } catch {
        return void 0;
      }
    };
  }
});

// ../../../tmp/fairprof/main/src/core/disk.ts
import { accessSync, constants as constants2, statfsSync } from "node:fs";
import { dirname as dirname2 } from "node:path";
function diskConditionOf(err, dir) {
  const code = err?.code;
  if (typeof code !== "string") return void 0;
  const known = BY_CODE[code];
  if (known && known !== "no-permission") return known;
  if (known || VAGUE.test(code)) return probeDir(dir) ?? (code.startsWith("SQLITE_READONLY") ? "read-only" : known);
  return void 0;
}
function probeDir(dir) {
  let at = dir;
  for (; ; ) {
    try {
      accessSync(at, constants2.W_OK);
    } catch (err) {
      const code = err.code;
      if (code === "EROFS") return "read-only";
      if (code === "EACCES" || code === "EPERM") return "no-permission";
      if (code === "ENOENT" && dirname2(at) !== at) {
        at = dirname2(at);
        continue;
      }
      return void 0;
    }
    try {
      const s = statfsSync(at);
      if (s.bavail === 0 || s.bfree === 0) return "full";
    } catch {
    }
    return void 0;
  }
}
function conditionText(c) {
  switch (c) {
    case "full":
      return "is on a full disk";
    case "read-only":
      return "is read-only";
    case "no-permission":
      return "is not writable by this user";
  }
}
var BY_CODE, VAGUE;
var init_disk = __esm({
  "../../../tmp/fairprof/main/src/core/disk.ts"() {
    "use strict";
    BY_CODE = {
      ENOSPC: "full",
      EDQUOT: "full",
      SQLITE_FULL: "full",
      EROFS: "read-only",
      EACCES: "no-permission",
      EPERM: "no-permission"
    };
    VAGUE = /^(ENOENT|EIO|SQLITE_IOERR|SQLITE_CANTOPEN|SQLITE_READONLY)/;
  }
});

// ../../../tmp/fairprof/main/src/core/packages.ts
import { createRequire } from "node:module";
function requirePackage(name) {
  return createRequire(import.meta.url)(name);
}
var init_packages = __esm({
  "../../../tmp/fairprof/main/src/core/packages.ts"() {
    "use strict";
  }
});

// ../../../tmp/fairprof/main/src/core/sqlite.ts
function named(err) {
  const e = err;
  if (e?.code !== "ERR_SQLITE_ERROR" || typeof e.errcode !== "number") return err;
  return new SqliteError(String(e.message), CODE_NAMES[e.errcode & 255] ?? `SQLITE_${e.errcode}`, { cause: err });
}
function guard(fn) {
  try {
    return fn();
  } catch (err) {
    throw named(err);
  }
}
function pickEngine() {
  const major = Number(process.versions.node.split(".")[0]);
  if (process.env.JOBFIT_SQLITE === "better-sqlite3" || major < 24) return "better-sqlite3";
  return process.getBuiltinModule("node:sqlite") ? "node:sqlite" : "better-sqlite3";
}
function loadEngine(name) {
  if (name === "node:sqlite") {
    const sqlite = process.getBuiltinModule("node:sqlite");
    if (!sqlite) throw new Error("node:sqlite is not available in this Node");
    return (path) => new NodeDatabase(guard(() => new sqlite.DatabaseSync(path)));
  }
  const Better = requirePackage("better-sqlite3");
  return (path) => new BetterDatabase(new Better(path));
}
function openDatabase(path, options = {}) {
  const name = options.engine ?? (chosen ??= pickEngine());
  return (engines[name] ??= loadEngine(name))(path);
}
var SqliteError, CODE_NAMES, NodeStatement, NodeDatabase, BetterStatement, BetterDatabase, engines, chosen;
var init_sqlite = __esm({
  "../../../tmp/fairprof/main/src/core/sqlite.ts"() {
    "use strict";
    init_packages();
    SqliteError = class extends Error {
      constructor(message, code, options) {
        super(message, options);
        this.code = code;
        this.name = "SqliteError";
      }
      code;
    };
    CODE_NAMES = {
      1: "SQLITE_ERROR",
      2: "SQLITE_INTERNAL",
      3: "SQLITE_PERM",
      4: "SQLITE_ABORT",
      5: "SQLITE_BUSY",
      6: "SQLITE_LOCKED",
      7: "SQLITE_NOMEM",
      8: "SQLITE_READONLY",
      9: "SQLITE_INTERRUPT",
      10: "SQLITE_IOERR",
      11: "SQLITE_CORRUPT",
      12: "SQLITE_NOTFOUND",
      13: "SQLITE_FULL",
      14: "SQLITE_CANTOPEN",
      15: "SQLITE_PROTOCOL",
      16: "SQLITE_EMPTY",
      17: "SQLITE_SCHEMA",
      18: "SQLITE_TOOBIG",
      19: "SQLITE_CONSTRAINT",
      20: "SQLITE_MISMATCH",
      21: "SQLITE_MISUSE",
      22: "SQLITE_NOLFS",
      23: "SQLITE_AUTH",
      24: "SQLITE_FORMAT",
      25: "SQLITE_RANGE",
      26: "SQLITE_NOTADB"
    };
    NodeStatement = class {
      constructor(s) {
        this.s = s;
      }
      s;
      // try/catch in each (not guard()): these are the stub's hot path.
      get(...params) {
        try {
          return this.s.get(...params);
        } catch (err) {
          throw named(err);
        }
      }
      all(...params) {
        try {
          return this.s.all(...params);
        } catch (err) {
          throw named(err);
        }
      }
      run(...params) {
        try {
          return this.s.run(...params);
        } catch (err) {
          throw named(err);
        }
      }
      value(...params) {
        const row = this.get(...params);
        return row === void 0 ? void 0 : Object.values(row)[0];
      }
      values(...params) {
        return this.all(...params).map((row) => Object.values(row)[0]);
      }
    };
    NodeDatabase = class {
      constructor(db) {
        this.db = db;
      }
      db;
      engine = "node:sqlite";
      prepare(sql) {
        return new NodeStatement(guard(() => this.db.prepare(sql)));
      }
      exec(sql) {
        guard(() => this.db.exec(sql));
      }
      get inTransaction() {
        return this.db.isTransaction;
      }
      get open() {
        return this.db.isOpen;
      }
      transaction(fn, mode = "deferred") {
        this.exec(mode === "immediate" ? "BEGIN IMMEDIATE" : "BEGIN");
        try {
          const result = fn();
          this.exec("COMMIT");
          return result;
        } catch (err) {
          if (this.inTransaction) this.exec("ROLLBACK");
          throw err;
        }
      }
      close() {
        if (this.open) this.db.close();
      }
    };
    BetterStatement = class {
      constructor(db, s) {
        this.db = db;
        this.s = s;
      }
      db;
      s;
      plucked;
      get(...params) {
        return this.s.get(...params);
      }
      all(...params) {
        return this.s.all(...params);
      }
      run(...params) {
        return this.s.run(...params);
      }
      pluck() {
        this.plucked ??= this.db.prepare(this.s.source).pluck();
        return this.plucked;
      }
      value(...params) {
        return this.pluck().get(...params);
      }
      values(...params) {
        return this.pluck().all(...params);
      }
    };
    BetterDatabase = class {
      constructor(db) {
        this.db = db;
        this.tx = db.transaction((fn) => fn());
      }
      db;
      engine = "better-sqlite3";
      tx;
      prepare(sql) {
        return new BetterStatement(this.db, this.db.prepare(sql));
      }
      exec(sql) {
        this.db.exec(sql);
      }
      get inTransaction() {
        return this.db.inTransaction;
      }
      get open() {
        return this.db.open;
      }
      transaction(fn, mode = "deferred") {
        return this.tx[mode](fn);
      }
      close() {
        if (this.db.open) this.db.close();
      }
    };
    engines = {};
  }
});

// ../../../tmp/fairprof/main/src/core/sqlite-files.ts
import { chmodSync as chmodSync2, closeSync as closeSync2, constants as constants3, lstatSync as lstatSync2, openSync as openSync2 } from "node:fs";
function sideProblem(path, what, elsewhere) {
  const st = lstatSync2(path, { throwIfNoEntry: false });
  if (!st) return void 0;
  const refuse = (why) => `${what}'s side file ${path} ${why}: the database is not opened. Remove it if it is not yours, or ${elsewhere}.`;
  if (st.isSymbolicLink()) return refuse("is a symbolic link");
  if (!st.isFile()) return refuse("is not a regular file");
  const uid = myUid();
  if (uid !== void 0 && st.uid !== uid) return refuse(`belongs to another user (uid ${st.uid}), who could read or change what is written to it`);
  if (uid !== void 0 && (st.mode & 63) !== 0) chmodSync2(path, 384);
  return void 0;
}
function checkSqliteSideFiles(db, what, elsewhere) {
  for (const suffix of SIDE_SUFFIXES) {
    const problem = sideProblem(db + suffix, what, elsewhere);
    if (problem) throw new UsageError(problem);
  }
}
function prepareSqliteSideFiles(db, what, elsewhere) {
  checkSqliteSideFiles(db, what, elsewhere);
  for (const suffix of CREATED) {
    try {
      closeSync2(openSync2(db + suffix, constants3.O_WRONLY | constants3.O_CREAT | constants3.O_EXCL | (constants3.O_NOFOLLOW ?? 0), 384));
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
      const problem = sideProblem(db + suffix, what, elsewhere);
      if (problem) throw new UsageError(problem);
    }
  }
}
var SIDE_SUFFIXES, CREATED, myUid;
var init_sqlite_files = __esm({
  "../../../tmp/fairprof/main/src/core/sqlite-files.ts"() {
    "use strict";
    init_errors();
    SIDE_SUFFIXES = ["-wal", "-shm", "-journal"];
    CREATED = ["-wal", "-shm"];
    myUid = () => process.getuid?.();
  }
});

// ../../../tmp/fairprof/main/src/stub/schema.ts
function addColumnIfMissing(db, table, column, type) {
  const cols = db.prepare(`PRAGMA table_info(${table})`).all();
  if (!cols.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
}
function migrateSchema(db) {
  const done = db.prepare("PRAGMA user_version").get().user_version;
  for (let step = done; step < MIGRATIONS.length; step++) MIGRATIONS[step](db);
  if (done < MIGRATIONS.length) db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
}
var SCHEMA, TABLES, MIGRATIONS;
var init_schema = __esm({
  "../../../tmp/fairprof/main/src/stub/schema.ts"() {
    "use strict";
    SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
  id INTEGER PRIMARY KEY,
  display_name TEXT NOT NULL,
  webhook_endpoint TEXT,
  webhook_test_endpoint TEXT,
  webhooks_enabled INTEGER NOT NULL DEFAULT 0,
  webhook_secret TEXT
);
CREATE TABLE IF NOT EXISTS api_keys (
  key TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('live','test'))
);
CREATE TABLE IF NOT EXISTS teams (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  display_name TEXT NOT NULL,
  webhooks_enabled INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS teams_account ON teams(account_id);
CREATE TABLE IF NOT EXISTS users (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  email_lc TEXT NOT NULL,
  default_team_id INTEGER,
  default_test_ids TEXT NOT NULL DEFAULT '[]',
  default_invitation_template_id INTEGER,
  default_congrats_template_id INTEGER,
  default_scheduling_link TEXT,
  send_congrats_notification INTEGER NOT NULL DEFAULT 0,
  notify_on_completion INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS users_account_email ON users(account_id, email_lc);
CREATE TABLE IF NOT EXISTS user_teams (user_id INTEGER NOT NULL, team_id INTEGER NOT NULL, PRIMARY KEY (user_id, team_id));
CREATE INDEX IF NOT EXISTS user_teams_team ON user_teams(team_id);
CREATE TABLE IF NOT EXISTS templates (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  display_name TEXT NOT NULL,
  template_type TEXT NOT NULL CHECK (template_type IN ('invitation','congrats'))
);
CREATE TABLE IF NOT EXISTS template_teams (template_id INTEGER NOT NULL, team_id INTEGER NOT NULL, PRIMARY KEY (template_id, team_id));
CREATE TABLE IF NOT EXISTS account_score_profiles (account_id INTEGER NOT NULL, score_profile_id INTEGER NOT NULL, PRIMARY KEY (account_id, score_profile_id));
CREATE TABLE IF NOT EXISTS invitations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL,
  team_id INTEGER NOT NULL,
  invited_by_user_id INTEGER,
  created_at TEXT NOT NULL,
  accepted_at TEXT,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  email_lc TEXT NOT NULL,
  send_via_email INTEGER NOT NULL,
  phone TEXT,
  send_via_sms INTEGER NOT NULL,
  custom_id TEXT,
  person_id TEXT,
  invitation_template_id INTEGER,
  ref_text TEXT,
  congrats_template_id INTEGER,
  send_congrats_notification INTEGER NOT NULL DEFAULT 0,
  target_score_profile_id INTEGER,
  token TEXT NOT NULL UNIQUE,
  test_taker_id INTEGER,
  status_callback_url TEXT,
  api_version TEXT NOT NULL DEFAULT 'v2'
);
CREATE INDEX IF NOT EXISTS invitations_list ON invitations(account_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS invitations_team_list ON invitations(team_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS invitations_email ON invitations(account_id, email_lc);
CREATE TABLE IF NOT EXISTS invitation_assessments (
  invitation_id INTEGER NOT NULL,
  test_id INTEGER NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (invitation_id, test_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS test_takers (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL,
  team_id INTEGER NOT NULL,
  invitation_id INTEGER NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  email_lc TEXT NOT NULL,
  phone TEXT,
  custom_id TEXT,
  person_id TEXT
);
CREATE INDEX IF NOT EXISTS test_takers_list ON test_takers(account_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS test_takers_team_list ON test_takers(team_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS test_takers_email ON test_takers(account_id, email_lc);
CREATE TABLE IF NOT EXISTS assigned_assessments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  test_taker_id INTEGER NOT NULL,
  test_id INTEGER NOT NULL,
  position INTEGER NOT NULL,
  completed_at TEXT,
  language TEXT
);
CREATE INDEX IF NOT EXISTS assigned_taker ON assigned_assessments(test_taker_id);
CREATE TABLE IF NOT EXISTS career_navigation_profiles (
  id TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  test_taker_id INTEGER NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS cnp_list ON career_navigation_profiles(account_id, created_at DESC, seq DESC);
CREATE TABLE IF NOT EXISTS outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL,
  channel TEXT NOT NULL CHECK (channel IN ('email','sms')),
  kind TEXT NOT NULL,
  recipient TEXT NOT NULL,
  subject TEXT,
  body TEXT NOT NULL,
  template_id INTEGER,
  invitation_id INTEGER,
  test_taker_id INTEGER,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  team_id INTEGER,
  type TEXT NOT NULL,
  created_at TEXT NOT NULL,
  payload TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id TEXT NOT NULL,
  url TEXT NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 1,
  status TEXT NOT NULL,
  response_status INTEGER,
  attempted_at TEXT NOT NULL,
  error TEXT,
  duration_ms INTEGER
);
CREATE INDEX IF NOT EXISTS deliveries_event ON deliveries(event_id);
CREATE TABLE IF NOT EXISTS webhook_queue (
  event_id TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  url TEXT,
  state TEXT NOT NULL CHECK (state IN ('pending','sending','delivered','failed','skipped')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  lease_until INTEGER,
  reason TEXT
);
CREATE INDEX IF NOT EXISTS webhook_queue_due ON webhook_queue(state, next_attempt_at);
CREATE TABLE IF NOT EXISTS webhook_listeners (
  url TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  pid INTEGER NOT NULL,
  linked_at INTEGER NOT NULL,
  ended_at INTEGER,
  before_json TEXT NOT NULL
);
`;
    TABLES = [
      "webhook_listeners",
      "webhook_queue",
      "deliveries",
      "events",
      "outbox",
      "career_navigation_profiles",
      "assigned_assessments",
      "test_takers",
      "invitation_assessments",
      "invitations",
      "account_score_profiles",
      "template_teams",
      "templates",
      "user_teams",
      "users",
      "teams",
      "api_keys",
      "accounts"
    ];
    MIGRATIONS = [
      (db) => {
        addColumnIfMissing(db, "deliveries", "duration_ms", "INTEGER");
        addColumnIfMissing(db, "accounts", "webhook_secret", "TEXT");
      }
    ];
  }
});

// ../../../tmp/fairprof/main/src/stub/store.ts
import { join } from "node:path";
function originOf(store2) {
  return store2.meta("origin") ?? DEFAULT_ORIGIN;
}
var FIRST_INVITATION_ID, FIRST_TEST_TAKER_ID, DB_FILE, SMALL_CACHE, SEED_CACHE, DEFAULT_ORIGIN, DISK_WARNING_QUIET_MS, StubDiskError, Store;
var init_store = __esm({
  "../../../tmp/fairprof/main/src/stub/store.ts"() {
    "use strict";
    init_errors();
    init_files();
    init_trust();
    init_disk();
    init_sqlite();
    init_sqlite_files();
    init_search_index();
    init_schema();
    FIRST_INVITATION_ID = 1e5;
    FIRST_TEST_TAKER_ID = 5e5;
    DB_FILE = "stub.db";
    SMALL_CACHE = -4096;
    SEED_CACHE = -8192;
    DEFAULT_ORIGIN = "http://127.0.0.1:4010";
    DISK_WARNING_QUIET_MS = 5 * 6e4;
    StubDiskError = class extends Error {
      constructor(condition, dataDir, cause) {
        const reason = `the stub's data directory ${dataDir} ${conditionText(condition)}`;
        super(`T${reason.slice(1)}`, cause === void 0 ? void 0 : { cause });
        this.condition = condition;
        this.dataDir = dataDir;
        this.reason = reason;
        this.name = "StubDiskError";
        this.code = condition === "full" ? "ENOSPC" : condition === "read-only" ? "EROFS" : "EACCES";
      }
      condition;
      dataDir;
      code;
      /** The cause as the end of a sentence: "the stub's data directory <dir> is on a full disk". */
      reason;
    };
    Store = class {
      constructor(dataDir) {
        this.dataDir = dataDir;
        this.path = join(dataDir, DB_FILE);
        const unsafe = trustProblem(this.path, "The stub's database", "give the stub another data folder");
        if (unsafe) throw new UsageError(unsafe);
        checkSqliteSideFiles(this.path, "The stub's database", "give the stub another data folder");
        try {
          ensurePrivateDir(dataDir);
          ensurePrivateFile(this.path);
          prepareSqliteSideFiles(this.path, "The stub's database", "give the stub another data folder");
          this.db = openDatabase(this.path);
          this.db.exec("PRAGMA busy_timeout = 5000");
          this.db.exec("PRAGMA journal_mode = WAL");
        } catch (err) {
          throw this.diskError(err) ?? err;
        }
        try {
          checkSqliteSideFiles(this.path, "The stub's database", "give the stub another data folder");
        } catch (err) {
          this.db.close();
          throw err;
        }
        this.db.exec("PRAGMA synchronous = OFF");
        this.db.exec("PRAGMA foreign_keys = OFF");
        this.db.exec(`PRAGMA cache_size = ${SMALL_CACHE}`);
        this.db.exec("PRAGMA wal_autocheckpoint = 8000");
        try {
          this.write(() => {
            this.db.exec(SCHEMA);
            migrateSchema(this.db);
            ensureSearchIndex(this.db);
          });
        } catch (err) {
          this.close();
          throw this.diskError(err) ?? err;
        }
      }
      dataDir;
      db;
      path;
      stmts = /* @__PURE__ */ new Map();
      /**
       * References to configuration rows (team, account, template, user by id),
       * which only a reset changes and a reset restores to the same values, so
       * they can be remembered for the life of the connection.
       */
      refCache = /* @__PURE__ */ new Map();
      /** Counts this connection's writes (run() and write()), so a cached read can tell it is stale. */
      writes = 0;
      /** Where warnings go (one line each); tests collect them. */
      warn = (line) => process.stderr.write(`jobfit stub: warning: ${line}
`);
      diskSeen = /* @__PURE__ */ new Map();
      /** The error of a write as a StubDiskError when the disk is the cause, else undefined. */
      diskError(err) {
        if (err instanceof StubDiskError) return err;
        const condition = diskConditionOf(err, this.dataDir);
        return condition ? new StubDiskError(condition, this.dataDir, err) : void 0;
      }
      /**
       * Logs that writes fail for `condition`: once, not once per write; again
       * only when it comes back after DISK_WARNING_QUIET_MS without it.
       */
      noteDiskCondition(condition) {
        const now = Date.now();
        const last = this.diskSeen.get(condition);
        this.diskSeen.set(condition, now);
        if (last !== void 0 && now - last < DISK_WARNING_QUIET_MS) return;
        this.warn(
          `${this.dataDir} ${conditionText(condition)}: writes are refused with ${condition === "full" ? "507" : "503"} until it is fixed; reads are still served.`
        );
      }
      /** A cached prepared statement. */
      stmt(sql) {
        let s = this.stmts.get(sql);
        if (!s) {
          s = this.db.prepare(sql);
          this.stmts.set(sql, s);
        }
        return s;
      }
      get(sql, ...params) {
        return this.stmt(sql).get(...params);
      }
      all(sql, ...params) {
        return this.stmt(sql).all(...params);
      }
      run(sql, ...params) {
        this.writes++;
        return this.stmt(sql).run(...params);
      }
      /** Runs `fn` in a BEGIN IMMEDIATE transaction (nested calls join the outer one). */
      write(fn) {
        if (this.db.inTransaction) return fn();
        try {
          return this.db.transaction(fn, "immediate");
        } finally {
          this.writes++;
        }
      }
      /**
       * Runs `fn` with a larger page cache (SEED_CACHE): bulk seeding touches
       * random pages of several indexes. 64 MB (an old setting) peaked at 167 MB.
       */
      withLargeCache(fn) {
        this.db.exec(`PRAGMA cache_size = ${SEED_CACHE}`);
        try {
          return fn();
        } finally {
          this.db.exec(`PRAGMA cache_size = ${SMALL_CACHE}`);
        }
      }
      /** Runs `fn` in a read transaction, so that a count and a page see the same snapshot. */
      read(fn) {
        if (this.db.inTransaction) return fn();
        return this.db.transaction(fn, "deferred");
      }
      meta(key) {
        return this.get("SELECT value FROM meta WHERE key = ?", key)?.value;
      }
      setMeta(key, value) {
        this.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value);
      }
      /**
       * Empties every table (the service's, and those other parts of the stub
       * add, such as the webhook queue) and the id counters. Call inside
       * store.write; the meta table is left to its owners.
       */
      clear() {
        dropSearchIndex(this.db);
        for (const t of TABLES) this.db.exec(`DELETE FROM ${t}`);
        const extra = this.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('meta', 'sqlite_sequence')").map((r) => r.name).filter((n) => !TABLES.includes(n));
        for (const t of extra) this.db.exec(`DELETE FROM "${t}"`);
        this.db.exec("DELETE FROM sqlite_sequence");
        ensureSearchIndex(this.db);
      }
      /** Starts the ids of invitations and test takers in their ranges. Call inside store.write, on an empty store. */
      startIdRanges() {
        this.db.exec(`INSERT INTO sqlite_sequence (name, seq) VALUES ('invitations', ${FIRST_INVITATION_ID - 1}), ('test_takers', ${FIRST_TEST_TAKER_ID - 1})`);
      }
      close() {
        this.stmts.clear();
        if (this.db.open) this.db.close();
      }
    };
  }
});

// ../../../tmp/fairprof/main/src/api/webhook-signature.ts
var init_webhook_signature = __esm({
  "../../../tmp/fairprof/main/src/api/webhook-signature.ts"() {
    "use strict";
  }
});

// ../../../tmp/fairprof/main/src/stub/webhooks/listeners.ts
var init_listeners = __esm({
  "../../../tmp/fairprof/main/src/stub/webhooks/listeners.ts"() {
    "use strict";
  }
});

// ../../../tmp/fairprof/main/src/stub/webhooks/policy.ts
var init_policy = __esm({
  "../../../tmp/fairprof/main/src/stub/webhooks/policy.ts"() {
    "use strict";
    init_errors();
  }
});

// ../../../tmp/fairprof/main/src/stub/webhooks/settings.ts
var init_settings = __esm({
  "../../../tmp/fairprof/main/src/stub/webhooks/settings.ts"() {
    "use strict";
    init_webhook_signature();
    init_policy();
  }
});

// ../../../tmp/fairprof/main/src/stub/webhooks/deliver.ts
var init_deliver = __esm({
  "../../../tmp/fairprof/main/src/stub/webhooks/deliver.ts"() {
    "use strict";
    init_webhook_signature();
    init_listeners();
    init_policy();
    init_settings();
  }
});

// ../../../tmp/fairprof/main/src/stub/webhooks/queue.ts
var init_queue = __esm({
  "../../../tmp/fairprof/main/src/stub/webhooks/queue.ts"() {
    "use strict";
    init_deliver();
    init_settings();
  }
});

// ../../../tmp/fairprof/main/src/stub/lifecycle.ts
function recordOutbox(store2, m, at = nowIso()) {
  store2.run(
    "INSERT INTO outbox (account_id, channel, kind, recipient, subject, body, template_id, invitation_id, test_taker_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    m.account_id,
    m.channel,
    m.kind,
    m.recipient,
    m.subject,
    m.body,
    m.template_id,
    m.invitation_id,
    m.test_taker_id,
    at
  );
}
var init_lifecycle = __esm({
  "../../../tmp/fairprof/main/src/stub/lifecycle.ts"() {
    "use strict";
    init_catalog2();
    init_search_index();
    init_ids();
    init_store();
    init_deliver();
    init_queue();
    init_views();
  }
});

// ../../../tmp/fairprof/main/src/stub/routes/account-context.ts
function anyTeam(c) {
  return c.store.get("SELECT id, display_name FROM teams WHERE account_id = ? ORDER BY id LIMIT 1", c.auth.accountId) ?? { id: 0, display_name: "Test Team" };
}
function fakeCtx(c, team) {
  return { origin: c.origin, account: accountRef(c.store, c.auth.accountId), team: team ?? anyTeam(c), now: nowIso() };
}
function enabledProfiles(c) {
  const ids2 = new Set(c.store.all("SELECT score_profile_id FROM account_score_profiles WHERE account_id = ?", c.auth.accountId).map((r) => r.score_profile_id));
  return SCORE_PROFILES.filter((p) => ids2.has(p.id));
}
var init_account_context = __esm({
  "../../../tmp/fairprof/main/src/stub/routes/account-context.ts"() {
    "use strict";
    init_catalog2();
    init_ids();
    init_views();
  }
});

// ../../../tmp/fairprof/main/src/stub/routes/list-filters.ts
function listFilters(c) {
  const custom = c.query.get("custom_id") ?? void 0;
  const email2 = c.query.get("email") ?? void 0;
  const team = c.query.get("team_id");
  if (custom !== void 0 && charLength(custom) > CUSTOM_ID_MAX) fail("custom_id: Custom ID must be at most 50 characters");
  if (email2 !== void 0 && charLength(email2) > 255) fail("email: Email must be at most 255 characters");
  const matching = { custom_id: custom || void 0, email: email2 || void 0 };
  const f = { ...matching, cap: listCap(matching) };
  if (team !== null) {
    const id2 = pathId(team.trim());
    if (id2 === null || !teamOfAccount(c, id2)) fail(MSG.teamNotFound);
    f.teamId = id2;
  }
  return f;
}
function likeArg(s) {
  return `%${s.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
function whereOf(f) {
  const parts = [];
  const args = [];
  if (f.teamId !== void 0) {
    parts.push("x.team_id = ?");
    args.push(f.teamId);
  }
  if (f.custom_id) {
    parts.push("x.custom_id LIKE ? ESCAPE '\\'");
    args.push(likeArg(f.custom_id));
  }
  if (f.email) {
    parts.push("x.email LIKE ? ESCAPE '\\'");
    args.push(likeArg(f.email));
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(""), args };
}
function sourceOf(store2, table, f) {
  const match = matchQuery(store2, table, [
    ["email", f.email],
    ["custom_id", f.custom_id]
  ]);
  if (match === null) return { from: `${table} x`, args: [] };
  const s = searchTable(table);
  return { from: `(SELECT rowid AS id FROM ${s} WHERE ${s} MATCH ?) m CROSS JOIN ${table} x ON x.id = m.id`, args: [match] };
}
function peopleQueries(store2, table, f, accountId) {
  const w = whereOf(f);
  const src = sourceOf(store2, table, f);
  const scan = src.args.length === 0 && Boolean(f.email || f.custom_id);
  const where = `WHERE ${scan ? "+" : ""}x.account_id = ?${w.sql}`;
  return {
    count: `SELECT COUNT(*) AS n FROM ${src.from} ${where}`,
    page: `SELECT x.*, t.display_name AS team_name, a.display_name AS account_name FROM ${src.from}
     JOIN teams t ON t.id = x.team_id JOIN accounts a ON a.id = x.account_id
     ${where} ORDER BY x.created_at DESC, x.id DESC LIMIT ?`,
    args: [...src.args, accountId, ...w.args]
  };
}
function peoplePage(c, table, f) {
  const q = peopleQueries(c.store, table, f, c.auth.accountId);
  const total = c.store.get(q.count, ...q.args).n;
  const rows = c.store.all(q.page, ...q.args, f.cap);
  return { total, rows };
}
var init_list_filters = __esm({
  "../../../tmp/fairprof/main/src/stub/routes/list-filters.ts"() {
    "use strict";
    init_messages();
    init_limits();
    init_reply();
    init_search_index();
    init_call();
  }
});

// ../../../tmp/fairprof/main/src/api/requests.ts
var requests_exports = {};
__export(requests_exports, {
  CreateInvitationBody: () => CreateInvitationBody,
  INTERNAL_FIELD_NAMES: () => INTERNAL_FIELD_NAMES,
  LIST_CAP: () => LIST_CAP,
  LIST_CAP_FILTERED: () => LIST_CAP_FILTERED,
  ListQuery: () => ListQuery,
  ScorecardQuery: () => ScorecardQuery,
  TEST_ID: () => TEST_ID,
  UpdateInvitationBody: () => UpdateInvitationBody,
  assessmentRule: () => assessmentRule,
  listCap: () => listCap,
  possibleE164: () => possibleE164,
  smsRule: () => smsRule,
  toE164: () => toE164,
  validationError: () => validationError
});
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import * as z from "zod";
function toE164(raw, defaultCountry = DEFAULT_PHONE_COUNTRY) {
  const trimmed = raw.trim();
  if (!trimmed) return null;
  const parsed = parsePhoneNumberFromString(trimmed, defaultCountry);
  return parsed?.isValid() ? parsed.number : null;
}
function possibleE164(raw, defaultCountry = DEFAULT_PHONE_COUNTRY) {
  const trimmed = raw.trim();
  if (!trimmed) return null;
  const parsed = parsePhoneNumberFromString(trimmed, defaultCountry);
  return parsed?.isPossible() ? parsed.number : null;
}
function required(what) {
  return z.string({ error: (iss) => iss.input === void 0 || iss.input === null ? `${what} is required` : `${what} must be a string` }).trim().min(1, `${what} is required`);
}
function validationError(error2, input) {
  const lines = error2.issues.map(issueMessage);
  const given = (i) => {
    if (input === void 0 || input === null || typeof input !== "object") return true;
    const v = input[String(i.path[0])];
    return v !== void 0 && v !== null;
  };
  const typeError = error2.issues.some(
    (i) => i.code === "invalid_type" && !/ is required$/.test(i.message) && given(i)
  );
  return typeError ? lines : lines[0];
}
function issueMessage(issue) {
  const head = issue.path[0];
  const field = typeof head === "string" ? INTERNAL_FIELD_NAMES[head] ?? head : void 0;
  const rest = issue.path.slice(1).map(String);
  const name = field ? [field, ...rest].join(".") : void 0;
  return name ? `${name}: ${issue.message}` : issue.message;
}
function assessmentRule(testIdsToAssign) {
  const hasPrescreen = testIdsToAssign.includes(TEST_ID.prescreen);
  const hasOther = testIdsToAssign.some((id2) => id2 !== TEST_ID.prescreen);
  return hasPrescreen && hasOther ? MSG.prescreenCombined : null;
}
function smsRule(sendViaSms, phoneE164) {
  return sendViaSms && !phoneE164 ? MSG.smsNeedsPhone : null;
}
var INTERNAL_FIELD_NAMES, DEFAULT_PHONE_COUNTRY, phone, testIds, customId, refText, int, bool, CreateInvitationBody, UpdateInvitationBody, ListQuery, ScorecardQuery;
var init_requests = __esm({
  "../../../tmp/fairprof/main/src/api/requests.ts"() {
    "use strict";
    init_messages();
    init_limits();
    init_catalog();
    init_limits();
    INTERNAL_FIELD_NAMES = {
      email: "sent_to_email",
      phone: "sent_to_phone"
    };
    DEFAULT_PHONE_COUNTRY = "US";
    phone = z.string({ error: "Phone must be a string" }).transform((value, ctx) => {
      if (value.trim() === "") return null;
      const e164 = toE164(value) ?? possibleE164(value);
      if (!e164) {
        ctx.addIssue({ code: "custom", message: "Invalid phone number" });
        return z.NEVER;
      }
      return e164;
    }).nullable();
    testIds = z.array(z.object({ test_id: z.number({ error: "test_id must be an integer" }).int("test_id must be an integer") }), {
      error: "assessments_to_assign must be an array of { test_id }"
    }).min(1, "At least one assessment is required");
    customId = z.string({ error: "Custom ID must be a string" }).max(CUSTOM_ID_MAX, "Custom ID must be at most 50 characters").nullable();
    refText = z.string({ error: "Reference text must be a string" }).max(60, "Reference text must be at most 60 characters").nullable();
    int = (what) => z.number({ error: `${what} must be an integer` }).int(`${what} must be an integer`);
    bool = (what) => z.boolean({ error: `${what} must be a boolean` });
    CreateInvitationBody = z.object({
      first_name: required("First name"),
      last_name: required("Last name"),
      // The reference gives one message for the participant email, missing or malformed alike.
      email: z.string({ error: "Invalid email address" }).trim().min(1, "Invalid email address").pipe(z.email("Invalid email address")),
      created_by_user_email: required("Inviter email"),
      person_id: z.string({ error: "Person ID must be a string" }).nullable().optional(),
      custom_id: customId.optional(),
      phone: phone.optional(),
      team_id: int("team_id").optional(),
      assessments_to_assign: testIds.optional(),
      send_via_email: bool("send_via_email").optional(),
      send_via_sms: bool("send_via_sms").optional(),
      email_template_id: int("email_template_id").optional(),
      ref_text: refText.optional()
    }).meta({ id: "CreateInvitationBody" });
    UpdateInvitationBody = z.object({
      first_name: required("First name").optional(),
      last_name: required("Last name").optional(),
      email: z.string({ error: "Invalid email address" }).trim().pipe(z.email("Invalid email address")).optional(),
      phone: phone.optional(),
      custom_id: customId.optional(),
      person_id: z.string({ error: "Person ID must be a string" }).nullable().optional(),
      ref_text: refText.optional(),
      send_via_email: bool("send_via_email").optional(),
      send_via_sms: bool("send_via_sms").optional(),
      email_template_id: int("email_template_id").optional(),
      send_congrats_notification: bool("send_congrats_notification").optional(),
      congrats_email_template_id: int("congrats_email_template_id").optional(),
      assessments_to_assign: testIds.optional()
    }).meta({ id: "UpdateInvitationBody" });
    ListQuery = z.object({
      team_id: z.number().int().optional().meta({ description: "exact: a team of the account, else 400 team_id not found" }),
      custom_id: z.string().max(CUSTOM_ID_MAX, "Custom ID must be at most 50 characters").optional().meta({ description: "partial, case-insensitive; raises the cap to 150" }),
      email: z.string().max(255, "Email must be at most 255 characters").optional().meta({ description: "partial, case-insensitive; raises the cap to 150" })
    }).meta({ id: "ListQuery" });
    ScorecardQuery = z.object({ sp: z.string().meta({ description: "short_name of a score profile enabled for the account (GET /score-profiles)" }) }).meta({ id: "ScorecardQuery" });
  }
});

// ../../../tmp/fairprof/main/src/stub/routes/invitations.ts
var invitations_exports = {};
__export(invitations_exports, {
  createInvitation: () => createInvitation,
  getInvitation: () => getInvitation,
  listInvitations: () => listInvitations,
  updateInvitation: () => updateInvitation
});
function listInvitations(c) {
  const f = listFilters(c);
  if (c.auth.mode === "test") {
    const team = f.teamId !== void 0 ? teamOfAccount(c, f.teamId) : void 0;
    return list(c, [fakeInvitationListItem(fakeCtx(c, team), f)]);
  }
  return c.store.read(() => {
    const { total, rows } = peoplePage(c, "invitations", f);
    return list(c, rows.map((r) => invitationListItem(r, c.origin)), total);
  });
}
function findInvitation(c, idText) {
  const id2 = pathId(idText);
  const row = id2 === null ? void 0 : c.store.get("SELECT * FROM invitations WHERE id = ? AND account_id = ?", id2, c.auth.accountId);
  if (!row) fail(MSG.invitationNotFound);
  return row;
}
function getInvitation(c) {
  if (c.auth.mode === "test") return json(200, fakeInvitation(fakeCtx(c), pathId(c.params[0]) ?? fakeId(c.params[0])));
  return json(200, invitationObject(c.store, findInvitation(c, c.params[0]), "live", c.origin));
}
function insertAssessments(store2, invitationId, testIds2) {
  if (testIds2.length === 0) return;
  const values = testIds2.map(() => "(?, ?, ?)").join(", ");
  store2.run(`INSERT INTO invitation_assessments (invitation_id, test_id, position) VALUES ${values}`, ...testIds2.flatMap((t, pos) => [invitationId, t, pos]));
}
function requests() {
  requestsModule ??= Promise.resolve().then(() => (init_requests(), requests_exports));
  return requestsModule;
}
function userByEmail(c, email2) {
  const lc = email2.trim().toLowerCase();
  return ref(c, `user:${c.auth.accountId}:${lc}`, () => c.store.get("SELECT * FROM users WHERE account_id = ? AND email_lc = ?", c.auth.accountId, lc));
}
function templateOfAccount(c, id2, type) {
  return ref(
    c,
    `template:${c.auth.accountId}:${id2}:${type}`,
    () => c.store.get("SELECT id FROM templates WHERE id = ? AND account_id = ? AND template_type = ?", id2, c.auth.accountId, type) ? true : void 0
  ) === true;
}
function checkTestIds(r, ids2) {
  for (const id2 of ids2) if (!ASSESSMENTS.some((a) => a.id === id2)) fail(MSG.unknownAssessment(id2));
  const rule = r.assessmentRule(ids2);
  if (rule) fail(rule);
}
function checkDuplicates(c, teamId, email2, except = null) {
  const lc = email2.toLowerCase();
  const d2 = c.store.get(
    `SELECT
       (SELECT team_id FROM test_takers WHERE account_id = @account AND email_lc = @email AND id <> @tt ORDER BY (team_id = @team) DESC LIMIT 1) AS tt,
       (SELECT team_id FROM invitations WHERE account_id = @account AND email_lc = @email AND id <> @inv ORDER BY (team_id = @team) DESC LIMIT 1) AS inv`,
    { account: c.auth.accountId, email: lc, tt: except?.testTakerId ?? -1, inv: except?.invitationId ?? -1, team: teamId }
  );
  if (d2.tt === teamId) fail(MSG.duplicateTestTakerSameTeam(email2));
  if (d2.inv === teamId) fail(MSG.duplicateInvitationSameTeam(email2));
  if (d2.inv !== null || d2.tt !== null) fail(MSG.duplicateOtherTeam(email2));
}
async function resolveCreate(c) {
  const raw = await c.body();
  const r = await requests();
  const parsed = r.CreateInvitationBody.safeParse(raw);
  if (!parsed.success) fail(r.validationError(parsed.error, raw));
  const b = parsed.data;
  const inviter = userByEmail(c, b.created_by_user_email);
  if (!inviter) fail(MSG.userNotFound(b.created_by_user_email));
  let teamId;
  if (b.team_id !== void 0) {
    if (!teamOfAccount(c, b.team_id)) fail(MSG.teamNotFound);
    teamId = b.team_id;
  } else {
    if (inviter.default_team_id === null || !teamOfAccount(c, inviter.default_team_id)) fail(MSG.noDefaultTeam(inviter.email));
    teamId = inviter.default_team_id;
  }
  let testIds2;
  if (b.assessments_to_assign !== void 0) testIds2 = [...new Set(b.assessments_to_assign.map((a) => a.test_id))];
  else {
    testIds2 = JSON.parse(inviter.default_test_ids);
    if (testIds2.length === 0) fail(MSG.noDefaultAssessments(inviter.email));
  }
  const sendViaEmail = b.send_via_email ?? true;
  const sendViaSms = b.send_via_sms ?? false;
  const templateId = b.email_template_id ?? inviter.default_invitation_template_id;
  if (sendViaEmail && templateId === null) fail(MSG.noDefaultTemplate(inviter.email));
  checkTestIds(r, testIds2);
  const phone2 = b.phone ?? null;
  const sms = r.smsRule(sendViaSms, phone2);
  if (sms) fail(sms);
  if (b.email_template_id !== void 0 && !templateOfAccount(c, b.email_template_id, "invitation")) fail(MSG.templateNotFound);
  if (c.auth.mode === "test") checkDuplicates(c, teamId, b.email);
  return {
    first_name: b.first_name,
    last_name: b.last_name,
    email: b.email,
    inviter,
    teamId,
    testIds: testIds2,
    sendViaEmail,
    sendViaSms,
    phone: phone2,
    templateId,
    customId: b.custom_id ?? null,
    personId: b.person_id ?? null,
    refText: b.ref_text ?? null
  };
}
async function createInvitation(c) {
  const v = await resolveCreate(c);
  const congratsId = v.inviter.default_congrats_template_id;
  const sendCongrats = congratsId !== null && v.inviter.send_congrats_notification === 1;
  if (c.auth.mode === "test") {
    const team = teamOfAccount(c, v.teamId);
    const ctx = fakeCtx(c, team);
    const id2 = fakeId(`post:${v.email}:${ctx.now}`);
    const fake = fakeInvitation(ctx, id2, {
      invited_by_user: { id: v.inviter.id, first_name: v.inviter.first_name, last_name: v.inviter.last_name, email: v.inviter.email },
      first_name: v.first_name,
      last_name: v.last_name,
      email: v.email,
      send_via_email: v.sendViaEmail,
      phone: v.phone,
      send_via_sms: v.sendViaSms,
      custom_id: v.customId,
      person_id: v.personId,
      invitation_email_template: templateRef(c.store, v.templateId),
      ref_text: v.refText,
      congrats_email_template: templateRef(c.store, congratsId),
      send_congrats_notification: sendCongrats,
      invitation_assessments: v.testIds.map(assessmentRef)
    });
    return json(201, fake);
  }
  const row = await groupCommitOf(c.store).submit({
    // Inside the write lock, after the writes of the requests before it: two
    // requests for one email must not both pass.
    check: () => checkDuplicates(c, v.teamId, v.email),
    apply: () => {
      const token = newToken();
      const createdAt = nowIso();
      const r = c.store.run(
        `INSERT INTO invitations (account_id, team_id, invited_by_user_id, created_at, accepted_at, first_name, last_name, email, email_lc,
          send_via_email, phone, send_via_sms, custom_id, person_id, invitation_template_id, ref_text, congrats_template_id,
          send_congrats_notification, target_score_profile_id, token, test_taker_id)
         VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, NULL)`,
        c.auth.accountId,
        v.teamId,
        v.inviter.id,
        createdAt,
        v.first_name,
        v.last_name,
        v.email,
        v.email.toLowerCase(),
        v.sendViaEmail ? 1 : 0,
        v.phone,
        v.sendViaSms ? 1 : 0,
        v.customId,
        v.personId,
        v.templateId,
        v.refText,
        congratsId,
        sendCongrats ? 1 : 0,
        token
      );
      const id2 = Number(r.lastInsertRowid);
      indexPerson(c.store, "invitations", id2, v.email, v.customId);
      insertAssessments(c.store, id2, v.testIds);
      const inv = {
        id: id2,
        account_id: c.auth.accountId,
        team_id: v.teamId,
        invited_by_user_id: v.inviter.id,
        created_at: createdAt,
        accepted_at: null,
        first_name: v.first_name,
        last_name: v.last_name,
        email: v.email,
        send_via_email: v.sendViaEmail ? 1 : 0,
        phone: v.phone,
        send_via_sms: v.sendViaSms ? 1 : 0,
        custom_id: v.customId,
        person_id: v.personId,
        invitation_template_id: v.templateId,
        ref_text: v.refText,
        congrats_template_id: congratsId,
        send_congrats_notification: sendCongrats ? 1 : 0,
        target_score_profile_id: null,
        token,
        test_taker_id: null,
        status_callback_url: null
      };
      recordDelivery(c, inv);
      return inv;
    }
  });
  return json(201, invitationObject(c.store, row, "live", c.origin, v.testIds));
}
function recordDelivery(c, inv) {
  const link = assessmentUrl(c.origin, inv.token);
  const template = templateRef(c.store, inv.invitation_template_id);
  if (inv.send_via_email === 1) {
    recordOutbox(c.store, {
      account_id: inv.account_id,
      channel: "email",
      kind: "invitation",
      recipient: inv.email,
      subject: `${inv.first_name}, you are invited to take an assessment`,
      body: `Template: ${template?.display_name ?? "(none)"}. Hello ${inv.first_name} ${inv.last_name}, start here: ${link}${inv.ref_text ? ` (ref: ${inv.ref_text})` : ""}`,
      template_id: inv.invitation_template_id,
      invitation_id: inv.id,
      test_taker_id: null
    });
  }
  if (inv.send_via_sms === 1 && inv.phone) {
    recordOutbox(c.store, {
      account_id: inv.account_id,
      channel: "sms",
      kind: "invitation",
      recipient: inv.phone,
      subject: null,
      body: `${inv.first_name}, you are invited to take an assessment: ${link}`,
      template_id: null,
      invitation_id: inv.id,
      test_taker_id: null
    });
  }
}
async function updateInvitation(c) {
  const live = c.auth.mode === "live";
  let existing;
  if (live) existing = findInvitation(c, c.params[0]);
  const raw = await c.body();
  const r = await requests();
  const parsed = r.UpdateInvitationBody.safeParse(raw);
  if (!parsed.success) fail(r.validationError(parsed.error, raw));
  const b = parsed.data;
  if (b.assessments_to_assign !== void 0) {
    if (existing?.accepted_at) fail(MSG.assessmentsLocked);
    checkTestIds(r, [...new Set(b.assessments_to_assign.map((a) => a.test_id))]);
  }
  if (b.send_via_sms !== void 0 || b.phone !== void 0) {
    const sms = b.send_via_sms ?? existing?.send_via_sms === 1;
    const phone2 = b.phone !== void 0 ? b.phone : existing?.phone ?? null;
    const rule = r.smsRule(sms, phone2);
    if (rule) fail(rule);
  }
  if (b.email_template_id !== void 0 && !templateOfAccount(c, b.email_template_id, "invitation")) fail(MSG.templateNotFound);
  if (b.congrats_email_template_id !== void 0 && !templateOfAccount(c, b.congrats_email_template_id, "congrats")) fail(MSG.congratsTemplateNotFound);
  if (!existing) {
    const id2 = pathId(c.params[0]) ?? fakeId(c.params[0]);
    const ctx = fakeCtx(c);
    const fields = {};
    for (const k of ["first_name", "last_name", "email", "phone", "custom_id", "person_id", "ref_text", "send_via_email", "send_via_sms", "send_congrats_notification"]) {
      if (b[k] !== void 0) fields[k] = b[k];
    }
    if (b.email_template_id !== void 0) fields.invitation_email_template = templateRef(c.store, b.email_template_id);
    if (b.congrats_email_template_id !== void 0) fields.congrats_email_template = templateRef(c.store, b.congrats_email_template_id);
    if (b.assessments_to_assign !== void 0) fields.invitation_assessments = [...new Set(b.assessments_to_assign.map((a) => a.test_id))].map(assessmentRef);
    return json(200, fakeInvitation(ctx, id2, fields));
  }
  const inv = existing;
  const row = c.store.write(() => {
    if (b.email !== void 0 && b.email.toLowerCase() !== inv.email.toLowerCase()) {
      checkDuplicates(c, inv.team_id, b.email, { invitationId: inv.id, testTakerId: inv.test_taker_id });
    }
    const sets = [];
    const args = [];
    const set = (col, value) => {
      sets.push(`${col} = ?`);
      args.push(value);
    };
    if (b.first_name !== void 0) set("first_name", b.first_name);
    if (b.last_name !== void 0) set("last_name", b.last_name);
    if (b.email !== void 0) {
      set("email", b.email);
      set("email_lc", b.email.toLowerCase());
    }
    if (b.phone !== void 0) set("phone", b.phone);
    if (b.custom_id !== void 0) set("custom_id", b.custom_id);
    if (b.person_id !== void 0) set("person_id", b.person_id);
    if (b.ref_text !== void 0) set("ref_text", b.ref_text);
    if (b.send_via_email !== void 0) set("send_via_email", b.send_via_email ? 1 : 0);
    if (b.send_via_sms !== void 0) set("send_via_sms", b.send_via_sms ? 1 : 0);
    if (b.email_template_id !== void 0) set("invitation_template_id", b.email_template_id);
    if (b.send_congrats_notification !== void 0) set("send_congrats_notification", b.send_congrats_notification ? 1 : 0);
    if (b.congrats_email_template_id !== void 0) set("congrats_template_id", b.congrats_email_template_id);
    if (sets.length > 0) c.store.run(`UPDATE invitations SET ${sets.join(", ")} WHERE id = ?`, ...args, inv.id);
    if (b.assessments_to_assign !== void 0) {
      c.store.run("DELETE FROM invitation_assessments WHERE invitation_id = ?", inv.id);
      for (const [pos, t] of [...new Set(b.assessments_to_assign.map((a) => a.test_id))].entries()) {
        c.store.run("INSERT INTO invitation_assessments (invitation_id, test_id, position) VALUES (?, ?, ?)", inv.id, t, pos);
      }
    }
    if (inv.test_taker_id !== null) {
      const tsets = [];
      const targs = [];
      const tset = (col, value) => {
        tsets.push(`${col} = ?`);
        targs.push(value);
      };
      if (b.first_name !== void 0) tset("first_name", b.first_name);
      if (b.last_name !== void 0) tset("last_name", b.last_name);
      if (b.email !== void 0) {
        tset("email", b.email);
        tset("email_lc", b.email.toLowerCase());
      }
      if (b.phone !== void 0) tset("phone", b.phone);
      if (b.custom_id !== void 0) tset("custom_id", b.custom_id);
      if (b.person_id !== void 0) tset("person_id", b.person_id);
      if (tsets.length > 0) c.store.run(`UPDATE test_takers SET ${tsets.join(", ")} WHERE id = ?`, ...targs, inv.test_taker_id);
    }
    return c.store.get("SELECT * FROM invitations WHERE id = ?", inv.id);
  });
  return json(200, invitationObject(c.store, row, "live", c.origin));
}
var requestsModule;
var init_invitations = __esm({
  "../../../tmp/fairprof/main/src/stub/routes/invitations.ts"() {
    "use strict";
    init_messages();
    init_catalog2();
    init_fakes();
    init_group_commit();
    init_reply();
    init_lifecycle();
    init_search_index();
    init_ids();
    init_views();
    init_call();
    init_account_context();
    init_list_filters();
  }
});

// ../../../tmp/fairprof/main/src/stub/routes/test-takers.ts
var test_takers_exports = {};
__export(test_takers_exports, {
  findTestTaker: () => findTestTaker,
  getTestTaker: () => getTestTaker,
  listTestTakers: () => listTestTakers,
  testIdParam: () => testIdParam
});
function listTestTakers(c) {
  const f = listFilters(c);
  if (c.auth.mode === "test") {
    const team = f.teamId !== void 0 ? teamOfAccount(c, f.teamId) : void 0;
    const fake = fakeTestTakerListItem(fakeCtx(c, team), f);
    return list(c, [c.minimal ? minimalTestTakerListItem(fake) : fake]);
  }
  return c.store.read(() => {
    const { total, rows } = peoplePage(c, "test_takers", f);
    return list(c, rows.map((r) => c.minimal ? minimalTestTakerListItem(testTakerListItem(r)) : testTakerListItem(r)), total);
  });
}
function findTestTaker(c, idText) {
  const id2 = pathId(idText);
  const row = id2 === null ? void 0 : c.store.get("SELECT * FROM test_takers WHERE id = ? AND account_id = ?", id2, c.auth.accountId);
  if (!row) fail(MSG.testTakerNotFound);
  return row;
}
function testIdParam(c) {
  return pathId(c.params[0]) ?? fakeId(c.params[0]);
}
function getTestTaker(c) {
  if (c.auth.mode === "test") return json(200, fakeTestTaker(fakeCtx(c), testIdParam(c)));
  const id2 = pathId(c.params[0]);
  const row = id2 === null ? void 0 : c.store.get(TEST_TAKER_ANSWER_SQL, id2, c.auth.accountId);
  if (!row) fail(MSG.testTakerNotFound);
  const links = { token: row.invitation_token ?? "", profile: row.has_profile ? { id: row.profile_id } : void 0 };
  return json(200, testTakerObject(c.store, row, "live", c.origin, links));
}
var TEST_TAKER_ANSWER_SQL;
var init_test_takers = __esm({
  "../../../tmp/fairprof/main/src/stub/routes/test-takers.ts"() {
    "use strict";
    init_messages();
    init_fakes();
    init_reply();
    init_views();
    init_call();
    init_account_context();
    init_list_filters();
    TEST_TAKER_ANSWER_SQL = `SELECT t.*, i.token AS invitation_token, p.id AS profile_id, p.test_taker_id IS NOT NULL AS has_profile
  FROM test_takers t
  LEFT JOIN invitations i ON i.id = t.invitation_id
  LEFT JOIN career_navigation_profiles p ON p.test_taker_id = t.id
  WHERE t.id = ? AND t.account_id = ?`;
  }
});

// ../../../tmp/fairprof/main/src/stub/job-fit-scoring.ts
function interestRange(score) {
  return score <= 3 ? "Low" : score <= 7 ? "Medium" : "High";
}
function traitRange(score) {
  return score <= 3 ? "Less Pronounced" : score <= 7 ? "Moderately Pronounced" : "More Pronounced";
}
function topFitOccupations(raw) {
  return JOB_FAMILIES.map((jf, i) => ({ jf, i, fit: fitOf(raw, jf) })).sort(
    (a, b) => (b.fit.job_fit_percentage ?? 0) - (a.fit.job_fit_percentage ?? 0) || (b.fit.fitscore_raw ?? 0) - (a.fit.fitscore_raw ?? 0) || a.i - b.i
  ).slice(0, 15).map(({ jf, fit }, i) => ({
    object: "job_family_job_fit",
    job_family_number: jf.job_family_number,
    job_family_name: jf.job_family_name,
    job_family_job_zone: jf.job_family_job_zone,
    job_fit_percentage: fit.job_fit_percentage ?? 0,
    job_fit_star_rating: fit.five_star_score ?? 1,
    rank: i + 1
  }));
}
function jobFitReportParts(seed2, completed) {
  const raw = rawScores(seed2, completed);
  const interests = raw.interests;
  const personality = raw.personality;
  if (!interests || !personality) return null;
  const ranked = rankedInterests(interests);
  const career_interests_profile = ranked.slice(0, 3).map(({ t }, i) => {
    const d2 = dimByShort.get(t.short_name);
    return { id: d2.id, display_name: d2.display_name, short_name: d2.short_name, description: d2.description, rank: i + 1 };
  });
  const career_interests = CAREER_INTEREST_TYPES.map((t) => {
    const d2 = dimByShort.get(t.short_name);
    return {
      object: "career_interest",
      id: d2.id,
      display_name: d2.display_name,
      short_name: d2.short_name,
      description: d2.description,
      facets: d2.facets.map((f) => ({
        object: "career_interest_facet",
        id: f.id,
        display_name: f.display_name,
        short_name: f.short_name,
        description: f.description,
        test_taker_score_range: interestRange(interests[f.short_name])
      }))
    };
  });
  const personality_traits_profile = PERSONALITY_TRAITS.map((t, i) => ({
    d: dimByShort.get(t.short_name),
    i,
    s: personality[t.short_name]
  })).sort((a, b) => b.s - a.s || a.i - b.i).slice(0, 5).map(({ d: d2 }, i) => ({
    id: d2.id,
    display_name: d2.display_name,
    short_name: d2.short_name,
    description: d2.description,
    rank: i + 1
  }));
  const personality_traits = PERSONALITY_TRAITS.map((t) => {
    const d2 = dimByShort.get(t.short_name);
    return {
      object: "personality_trait",
      id: d2.id,
      display_name: `${d2.display_name} Overall`,
      short_name: d2.short_name,
      description: d2.description,
      facets: d2.facets.map((f) => ({
        object: "personality_trait_facet",
        id: f.id,
        display_name: f.display_name,
        short_name: f.short_name,
        description: f.description,
        anchor_low: f.anchor_low ?? "",
        anchor_high: f.anchor_high ?? "",
        test_taker_score_range: traitRange(personality[f.short_name])
      }))
    };
  });
  return {
    riasec_profile: riasecFromScores(interests),
    career_interests_profile,
    career_interests,
    personality_traits_profile,
    personality_traits,
    top_fit_occupations: topFitOccupations(raw)
  };
}
var dimByShort;
var init_job_fit_scoring = __esm({
  "../../../tmp/fairprof/main/src/stub/job-fit-scoring.ts"() {
    "use strict";
    init_catalog2();
    init_scoring();
    dimByShort = new Map(DIMENSIONS.map((d2) => [d2.short_name, d2]));
  }
});

// ../../../tmp/fairprof/main/src/stub/results.ts
function whoOf(s) {
  return {
    test_taker_id: s.test_taker_id,
    invitation_id: s.invitation_id,
    custom_id: s.custom_id,
    person_id: s.person_id,
    career_navigation_profile_id: s.career_navigation_profile_id,
    first_name: s.first_name,
    last_name: s.last_name,
    email: s.email
  };
}
function scorecardObject(s, profile, mode) {
  const parts = scorecardParts(s.seed, s.completed, profile);
  return {
    mode,
    object: "scorecard",
    ...whoOf(s),
    phone: s.phone,
    fitscore_raw: parts.fitscore_raw,
    five_star_score: parts.five_star_score,
    job_fit_percentage: parts.job_fit_percentage,
    scorecard_url: s.scorecard_url,
    score_profile: { id: profile.id, display_name: profile.display_name, short_name: profile.short_name, riasec_profile: profile.riasec_profile },
    riasec_profile: parts.riasec_profile,
    scores: parts.scores
  };
}
function jobFitReportObject(s, mode) {
  const parts = jobFitReportParts(s.seed, s.completed);
  if (!parts) return null;
  return {
    mode,
    object: "job_fit_report",
    ...whoOf(s),
    assessment_url: s.assessment_url,
    career_navigation_url: s.career_navigation_url,
    scorecard_url: s.scorecard_url,
    job_fit_summary_url: s.job_fit_summary_url,
    career_options_spotlight_url: s.career_options_spotlight_url,
    team: s.team,
    account: s.account,
    riasec_profile: parts.riasec_profile,
    career_interests_profile: parts.career_interests_profile,
    career_interests: parts.career_interests,
    personality_traits_profile: parts.personality_traits_profile,
    personality_traits: parts.personality_traits,
    top_fit_occupations: parts.top_fit_occupations
  };
}
var init_results = __esm({
  "../../../tmp/fairprof/main/src/stub/results.ts"() {
    "use strict";
    init_job_fit_scoring();
    init_scoring();
  }
});

// ../../../tmp/fairprof/main/src/stub/routes/results.ts
var results_exports = {};
__export(results_exports, {
  getJobFitReport: () => getJobFitReport,
  getScorecard: () => getScorecard,
  subjectFor: () => subjectFor
});
function subjectFor(store2, origin, tt) {
  const c = { store: store2, origin };
  const inv = c.store.get("SELECT * FROM invitations WHERE id = ?", tt.invitation_id);
  const urls = resultUrls(c.store, c.origin, inv.token, tt.id);
  return {
    test_taker_id: tt.id,
    invitation_id: tt.invitation_id,
    custom_id: tt.custom_id,
    person_id: tt.person_id,
    career_navigation_profile_id: urls.career_navigation_profile_id,
    first_name: tt.first_name,
    last_name: tt.last_name,
    email: tt.email,
    phone: inv.phone,
    assessment_url: assessmentUrl(c.origin, inv.token),
    career_navigation_url: urls.career_navigation_url,
    scorecard_url: urls.scorecard_url,
    job_fit_summary_url: urls.job_fit_summary_url,
    career_options_spotlight_url: urls.career_options_spotlight_url,
    team: teamRef(c.store, tt.team_id),
    account: accountRef(c.store, tt.account_id),
    seed: scoreSeed(tt.account_id, tt.id),
    completed: completedTests(c.store, tt.id)
  };
}
function getScorecard(c) {
  const subject = c.auth.mode === "test" ? fakeResultSubject(fakeCtx(c), testIdParam(c)) : subjectOf(c, findTestTaker(c, c.params[0]));
  const sp = c.query.get("sp");
  if (sp === null || sp.trim() === "") fail(MSG.spRequired);
  const profile = enabledProfiles(c).find((p) => p.short_name === sp);
  if (!profile) fail(MSG.spInvalid(sp));
  return json(200, scorecardObject(subject, profile, c.auth.mode));
}
function getJobFitReport(c) {
  const subject = c.auth.mode === "test" ? fakeResultSubject(fakeCtx(c), testIdParam(c)) : subjectOf(c, findTestTaker(c, c.params[0]));
  const report = jobFitReportObject(subject, c.auth.mode);
  if (!report) fail(MSG.jobFitNotReady);
  return json(200, report);
}
var subjectOf;
var init_results2 = __esm({
  "../../../tmp/fairprof/main/src/stub/routes/results.ts"() {
    "use strict";
    init_messages();
    init_fakes();
    init_reply();
    init_results();
    init_views();
    init_call();
    init_account_context();
    init_test_takers();
    subjectOf = (c, tt) => subjectFor(c.store, c.origin, tt);
  }
});

// ../../../tmp/fairprof/main/src/stub/routes/profiles.ts
var profiles_exports = {};
__export(profiles_exports, {
  getProfile: () => getProfile,
  listProfiles: () => listProfiles
});
function listProfiles(c) {
  if (c.auth.mode === "test") {
    const fake = fakeProfileListItem(fakeCtx(c));
    return list(c, [c.minimal ? minimalProfileListItem(fake) : fake]);
  }
  return c.store.read(() => {
    const total = c.store.get("SELECT COUNT(*) AS n FROM career_navigation_profiles WHERE account_id = ?", c.auth.accountId).n;
    const rows = c.store.all(
      `SELECT p.*, t.custom_id, t.person_id FROM career_navigation_profiles p JOIN test_takers t ON t.id = p.test_taker_id
       WHERE p.account_id = ? ORDER BY p.created_at DESC, p.seq DESC LIMIT ?`,
      c.auth.accountId,
      LIST_CAP
    );
    return list(c, rows.map((r) => c.minimal ? minimalProfileListItem(profileListItem(r, c.origin)) : profileListItem(r, c.origin)), total);
  });
}
function getProfile(c) {
  const id2 = c.params[0];
  if (c.auth.mode === "test") return json(200, fakeProfile(fakeCtx(c), id2));
  const p = c.store.get("SELECT * FROM career_navigation_profiles WHERE id = ? AND account_id = ?", id2, c.auth.accountId);
  if (!p) return json(404, null);
  return json(200, profileObject(c.store, p, "live", c.origin));
}
var init_profiles = __esm({
  "../../../tmp/fairprof/main/src/stub/routes/profiles.ts"() {
    "use strict";
    init_limits();
    init_fakes();
    init_reply();
    init_views();
    init_call();
    init_account_context();
  }
});

// ../../../tmp/fairprof/main/src/stub/routes/assessments.ts
var assessments_exports = {};
__export(assessments_exports, {
  listAssessments: () => listAssessments,
  listScoreProfiles: () => listScoreProfiles
});
function listAssessments(c) {
  const data = ASSESSMENTS.map((a) => ({ object: "assessment", id: a.id, display_name: a.display_name, short_name: a.short_name }));
  return list(c, data);
}
function listScoreProfiles(c) {
  const data = enabledProfiles(c).map((p) => ({
    object: "score_profile",
    id: p.id,
    display_name: p.display_name,
    short_name: p.short_name,
    riasec_profile: p.riasec_profile
  }));
  return list(c, data);
}
var init_assessments = __esm({
  "../../../tmp/fairprof/main/src/stub/routes/assessments.ts"() {
    "use strict";
    init_catalog2();
    init_call();
    init_account_context();
  }
});

// ../../../tmp/fairprof/main/src/stub/routes/v1.ts
var v1_exports = {};
__export(v1_exports, {
  handleV1: () => handleV1
});
function authV1(store2, q) {
  const auth = q.get("auth");
  const sid = q.get("sid");
  if (!auth || !sid || !/^\d+$/.test(sid)) return null;
  const row = store2.get(
    "SELECT k.account_id FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key = ? AND k.mode = 'live'",
    auth
  );
  return row && row.account_id === Number(sid) ? row.account_id : null;
}
async function handleV1(store2, origin, method, seg, q, body2, contentType) {
  const isCreate = seg.length === 2 && seg[0] === "invitations" && seg[1] === "create";
  const isGet = seg.length === 2 && seg[0] === "invitations" && !isCreate;
  if (!isCreate && !isGet) return error(404, MSG.notFound);
  const allowed = isCreate ? "POST" : "GET";
  if (method !== allowed) return methodNotAllowed([allowed]);
  if (isCreate && !/^application\/json\s*(;|$)/i.test(contentType ?? "")) return error(415, V1_JSON_ONLY);
  const accountId = authV1(store2, q);
  if (accountId === null) return error(401, V1_AUTH_FAILED);
  return isCreate ? create(store2, origin, accountId, await body2()) : get(store2, origin, accountId, seg[1]);
}
function str(b, k, required2) {
  const v = b[k];
  if (v === void 0 || v === null || typeof v === "string" && v.trim() === "") return required2 ? error(400, `${k}: ${k} is required`) : null;
  if (typeof v !== "string") return error(400, `${k}: ${k} must be a string`);
  return v.trim();
}
function bool2(b, k, required2) {
  const v = b[k];
  if (v === void 0 || v === null) return required2 ? error(400, `${k}: ${k} is required`) : null;
  if (typeof v !== "boolean") return error(400, `${k}: ${k} must be a boolean`);
  return v;
}
async function create(store2, origin, accountId, b) {
  const teamId = b.teamId;
  if (teamId === void 0 || teamId === null) return error(400, "teamId: teamId is required");
  if (typeof teamId !== "number" || !Number.isInteger(teamId)) return error(400, "teamId: teamId must be a number");
  const firstName = str(b, "firstName", true);
  if (isReply(firstName)) return firstName;
  const lastName = str(b, "lastName", true);
  if (isReply(lastName)) return lastName;
  const email2 = str(b, "sentToEmail", true);
  if (isReply(email2)) return email2;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email2)) return error(400, "sentToEmail: Invalid email address");
  const customId2 = str(b, "customId", false);
  if (isReply(customId2)) return customId2;
  if (customId2 && charLength(customId2) > CUSTOM_ID_MAX) return error(400, "customId: Custom ID must be at most 50 characters");
  const rawPhone = str(b, "sentToPhone", false);
  if (isReply(rawPhone)) return rawPhone;
  const callback = str(b, "statusCallbackUrl", false);
  if (isReply(callback)) return callback;
  const sendViaEmail = bool2(b, "sendViaEmail", true);
  if (isReply(sendViaEmail)) return sendViaEmail;
  const sendViaSms = bool2(b, "sendViaSms", false);
  if (isReply(sendViaSms)) return sendViaSms;
  const tests = [];
  for (const [k, id2] of ASSIGN_FLAGS) {
    const v = bool2(b, k, false);
    if (isReply(v)) return v;
    if (v) tests.push(id2);
  }
  if (tests.length === 0) return error(400, "At least one of assignPrescreen, assignPersonality, assignInterests, assignThinking must be true");
  const { toE164: toE1642, assessmentRule: assessmentRule2 } = await Promise.resolve().then(() => (init_requests(), requests_exports));
  let phone2 = null;
  if (rawPhone) {
    phone2 = toE1642(rawPhone);
    if (!phone2) return error(400, "sentToPhone: Invalid phone number");
  }
  const team = store2.get("SELECT id FROM teams WHERE id = ? AND account_id = ?", teamId, accountId);
  if (!team) return error(400, "teamId not found");
  const rule = assessmentRule2(tests);
  if (rule) return error(400, rule);
  if (sendViaSms && !phone2) return error(400, MSG.smsNeedsPhone);
  const template = store2.get(
    `SELECT t.id FROM templates t LEFT JOIN template_teams tt ON tt.template_id = t.id AND tt.team_id = ?
     WHERE t.account_id = ? AND t.template_type = 'invitation' ORDER BY (tt.team_id IS NULL), t.id LIMIT 1`,
    teamId,
    accountId
  );
  const result = store2.write(() => {
    const lc = email2.toLowerCase();
    const sameTT = store2.get("SELECT id FROM test_takers WHERE account_id = ? AND email_lc = ? AND team_id = ?", accountId, lc, teamId);
    if (sameTT) return error(400, MSG.duplicateTestTakerSameTeam(email2));
    const inv = store2.get("SELECT team_id FROM invitations WHERE account_id = ? AND email_lc = ? ORDER BY (team_id = ?) DESC LIMIT 1", accountId, lc, teamId);
    if (inv) return error(400, inv.team_id === teamId ? MSG.duplicateInvitationSameTeam(email2) : MSG.duplicateOtherTeam(email2));
    const r = store2.run(
      `INSERT INTO invitations (account_id, team_id, invited_by_user_id, created_at, accepted_at, first_name, last_name, email, email_lc,
        send_via_email, phone, send_via_sms, custom_id, person_id, invitation_template_id, ref_text, congrats_template_id,
        send_congrats_notification, target_score_profile_id, token, test_taker_id, status_callback_url, api_version)
       VALUES (?, ?, NULL, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, NULL, NULL, 0, NULL, ?, NULL, ?, 'v1')`,
      accountId,
      teamId,
      nowIso(),
      firstName,
      lastName,
      email2,
      lc,
      sendViaEmail ? 1 : 0,
      phone2,
      sendViaSms ? 1 : 0,
      customId2,
      template?.id ?? null,
      newToken(),
      callback
    );
    const id2 = Number(r.lastInsertRowid);
    indexPerson(store2, "invitations", id2, email2, customId2);
    tests.forEach((t, pos) => {
      store2.run("INSERT INTO invitation_assessments (invitation_id, test_id, position) VALUES (?, ?, ?)", id2, t, pos);
    });
    const row2 = store2.get("SELECT * FROM invitations WHERE id = ?", id2);
    const link = assessmentUrl(origin, row2.token);
    if (sendViaEmail) {
      recordOutbox(store2, {
        account_id: accountId,
        channel: "email",
        kind: "invitation",
        recipient: row2.email,
        subject: `${row2.first_name}, you are invited to take an assessment`,
        body: `Hello ${row2.first_name} ${row2.last_name}, start here: ${link}`,
        template_id: row2.invitation_template_id,
        invitation_id: id2,
        test_taker_id: null
      });
    }
    if (sendViaSms && phone2) {
      recordOutbox(store2, {
        account_id: accountId,
        channel: "sms",
        kind: "invitation",
        recipient: phone2,
        subject: null,
        body: `${row2.first_name}, you are invited to take an assessment: ${link}`,
        template_id: null,
        invitation_id: id2,
        test_taker_id: null
      });
    }
    return row2;
  });
  if (isReply(result)) return result;
  const row = result;
  return {
    status: 200,
    json: {
      ...v1Head(row),
      team_id: row.team_id,
      ...v1Tail(row),
      assessment_link: assessmentUrl(origin, row.token)
    }
  };
}
function get(store2, origin, accountId, idText) {
  const id2 = /^\d{1,15}$/.test(idText) ? Number(idText) : null;
  const row = id2 === null ? void 0 : store2.get("SELECT * FROM invitations WHERE id = ? AND account_id = ?", id2, accountId);
  if (!row) return error(404, MSG.invitationNotFound);
  const team = store2.get("SELECT id, display_name FROM teams WHERE id = ?", row.team_id);
  const account = store2.get("SELECT id, display_name FROM accounts WHERE id = ?", row.account_id);
  const tt = row.test_taker_id === null ? void 0 : store2.get("SELECT id, created_at FROM test_takers WHERE id = ?", row.test_taker_id);
  return {
    status: 200,
    json: {
      ...v1Head(row),
      accepted_at: row.accepted_at,
      ...v1Tail(row),
      team: { id: team.id, display_name: team.display_name, account: { id: account.id, display_name: account.display_name } },
      test_taker_seats: tt ? [{ id: tt.id, created_at: tt.created_at }] : [],
      test_taker_magic_links: [{ id: row.id, created_at: row.created_at, is_revoked: false, magic_link: assessmentUrl(origin, row.token) }]
    }
  };
}
function v1Head(row) {
  return { id: row.id, invite_key: row.token, first_name: row.first_name, last_name: row.last_name, created_at: row.created_at };
}
function v1Tail(row) {
  return {
    custom_id: row.custom_id,
    ref_text: row.ref_text,
    send_via_email: row.send_via_email === 1,
    send_via_sms: row.send_via_sms === 1,
    sent_to_email: row.email,
    sent_to_phone: row.phone,
    status_callback_url: row.status_callback_url
  };
}
var V1_AUTH_FAILED, V1_JSON_ONLY, ASSIGN_FLAGS, isReply;
var init_v1 = __esm({
  "../../../tmp/fairprof/main/src/stub/routes/v1.ts"() {
    "use strict";
    init_limits();
    init_messages();
    init_catalog2();
    init_reply();
    init_lifecycle();
    init_search_index();
    init_ids();
    init_views();
    V1_AUTH_FAILED = "Authentication failed: check the auth and sid query parameters";
    V1_JSON_ONLY = "Content-Type must be application/json";
    ASSIGN_FLAGS = [
      ["assignPrescreen", TEST_ID.prescreen],
      ["assignPersonality", TEST_ID.personality],
      ["assignThinking", TEST_ID.thinking],
      ["assignInterests", TEST_ID.interests]
    ];
    isReply = (x) => typeof x === "object" && x !== null && "status" in x;
  }
});

// ../../../tmp/fairprof/main/src/core/standalone.ts
function seaModule() {
  if (sea === void 0) {
    const m = process.getBuiltinModule("node:sea");
    sea = m?.isSea() ? m : null;
  }
  return sea;
}
function assetText(name) {
  return seaModule()?.getAsset(name, "utf8");
}
var sea;
var init_standalone = __esm({
  "../../../tmp/fairprof/main/src/core/standalone.ts"() {
    "use strict";
  }
});

// ../../../tmp/fairprof/main/src/stub/people.ts
function slug(name) {
  return name.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[ßøØłŁæÆđĐœ]/g, (c) => SPECIAL[c]).toLowerCase().replace(/[^a-z-]/g, "");
}
function weightedTable(weights) {
  const cum = [];
  let total = 0;
  for (const w of weights) {
    total += w;
    cum.push(total);
  }
  return (u) => {
    const x = u * total;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = lo + hi >> 1;
      if (x < cum[mid]) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}
function personAt(index, seedHash, domains) {
  const rng = mulberry32((seedHash ^ Math.imul(index + 1, 2654435761)) >>> 0);
  const culture = PREPARED[CULTURE_PICK(rng())];
  const [first_name, fs] = pick(rng, culture.first);
  const [last_name, ls] = pick(rng, culture.last);
  const n = index + 1;
  let local;
  switch (Math.floor(rng() * 5)) {
    case 0:
      local = `${fs}.${ls}${n}`;
      break;
    case 1:
      local = `${fs[0]}${ls}${n}`;
      break;
    case 2:
      local = `${fs}_${ls}.${n}`;
      break;
    case 3:
      local = `${ls}.${fs}${n}`;
      break;
    default:
      local = `${fs}${ls[0]}${n}`;
  }
  const domain = domains && domains.length > 0 ? pick(rng, domains) : DEFAULT_DOMAINS[DOMAIN_PICK(rng())][0];
  const phone2 = rng() < 0.3 ? null : PHONE[pick(rng, culture.countries)](rng);
  const custom_id = rng() < 0.45 ? null : pick(rng, CUSTOM_ID_GROUPS);
  const pr = rng();
  const person_id = pr < 0.4 ? null : pr < 0.8 ? `P${String(n).padStart(7, "0")}` : `ats-${n.toString(36)}`;
  return { first_name, last_name, email: `${local}@${domain}`, phone: phone2, custom_id, person_id };
}
var CULTURES, SPECIAL, PREPARED, CULTURE_PICK, DEFAULT_DOMAINS, DOMAIN_PICK, d, pick, PHONE, CUSTOM_ID_GROUPS;
var init_people = __esm({
  "../../../tmp/fairprof/main/src/stub/people.ts"() {
    "use strict";
    init_random();
    CULTURES = [
      {
        weight: 24,
        first: ["James", "Mary", "Robert", "Patricia", "Michael", "Jennifer", "David", "Linda", "Emily", "Daniel", "Ashley", "Tyler", "Brittany", "Jordan", "Megan", "Kevin", "Rachel", "Brandon", "Amanda", "Zo\xEB"],
        last: ["Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "Wilson", "Anderson", "Taylor", "Thomas", "Moore", "Jackson", "Martin", "Thompson", "White", "Harris", "Clark", "Lewis", "Walker-Hayes"],
        countries: ["US", "US", "US", "CA", "AU"]
      },
      {
        weight: 8,
        first: ["Siobh\xE1n", "Liam", "Aoife", "Se\xE1n", "Niamh", "Ciar\xE1n", "R\xF3is\xEDn", "Patrick", "Saoirse", "Declan"],
        last: ["O'Brien", "O'Connor", "O'Sullivan", "McCarthy", "Murphy", "Kelly", "D'Arcy", "Byrne", "\xD3 S\xFAilleabh\xE1in", "MacNeill"],
        countries: ["IE", "GB", "US"]
      },
      {
        weight: 8,
        first: ["Oliver", "Amelia", "Harry", "Isla", "George", "Charlotte", "Freddie", "Imogen", "Alfie", "Poppy"],
        last: ["Wright", "Hughes", "Edwards", "Green", "Hall", "Wood", "Clarke", "Jones-Lloyd", "Bennett", "Ashworth"],
        countries: ["GB", "GB", "AU"]
      },
      {
        weight: 9,
        first: ["J\xFCrgen", "Anna", "Lukas", "Lea", "Maximilian", "Sophie", "J\xF6rg", "Hannah", "Bj\xF6rn", "K\xE4the", "Felix", "Greta"],
        last: ["M\xFCller", "Schmidt", "Schneider", "Fischer", "Wei\xDF", "Schr\xF6der", "Becker", "Hoffmann", "Sch\xE4fer", "Gro\xDF", "Meyer-L\xFCdenscheidt", "Kr\xFCger"],
        countries: ["DE", "DE", "DE", "AT", "CH"]
      },
      {
        weight: 8,
        first: ["Fran\xE7ois", "H\xE9l\xE8ne", "Chlo\xE9", "L\xE9a", "J\xE9r\xF4me", "Am\xE9lie", "Th\xE9o", "No\xE9mie", "Ga\xEBl", "In\xE8s", "Jean-Luc", "Ana\xEFs"],
        last: ["Dubois", "Lef\xE8vre", "Moreau", "Laurent", "Girard", "Bonnet", "Rousseau", "Fournier", "Mercier", "D'Amboise", "Lema\xEEtre", "Faure"],
        countries: ["FR", "FR", "FR", "BE", "CA"]
      },
      {
        weight: 10,
        first: ["Jos\xE9", "Mar\xEDa", "Jes\xFAs", "Luc\xEDa", "Andr\xE9s", "Sof\xEDa", "Mart\xEDn", "Ximena", "I\xF1aki", "Valentina", "Ra\xFAl", "\xC1ngela"],
        last: ["Garc\xEDa", "Rodr\xEDguez", "Mart\xEDnez", "Hern\xE1ndez", "L\xF3pez", "Gonz\xE1lez", "P\xE9rez", "S\xE1nchez", "N\xFA\xF1ez", "Pe\xF1a", "Mu\xF1oz", "Ib\xE1\xF1ez"],
        countries: ["ES", "MX", "MX", "US", "ES"]
      },
      {
        weight: 5,
        first: ["Giulia", "Alessandro", "Francesca", "Lorenzo", "Chiara", "Niccol\xF2", "Martina", "Matteo"],
        last: ["Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "D'Angelo"],
        countries: ["IT"]
      },
      {
        weight: 4,
        first: ["Daan", "Sanne", "Bram", "Femke", "Joost", "Lotte", "Sem", "Anouk"],
        last: ["de Jong", "Jansen", "de Vries", "van den Berg", "van Dijk", "Bakker", "Visser", "van der Meer"],
        countries: ["NL"]
      },
      {
        weight: 4,
        first: ["\u0141ukasz", "Agnieszka", "Pawe\u0142", "Ma\u0142gorzata", "S\xF8ren", "\xC5sa", "Mikael", "Ingrid"],
        last: ["W\xF3jcik", "Kowalczyk", "Zieli\u0144ski", "D\u0105browska", "S\xF8rensen", "\xD8deg\xE5rd", "Lindqvist", "\xC5berg"],
        countries: ["DE", "GB", "NL"]
      },
      {
        weight: 7,
        first: ["Priya", "Arjun", "Ananya", "Rohan", "Divya", "Vikram", "Sneha", "Aditya"],
        last: ["Sharma", "Patel", "Iyer", "Reddy", "Nair", "Gupta", "Chatterjee", "Venkataraman"],
        countries: ["IN", "IN", "US", "GB"]
      },
      {
        weight: 6,
        first: ["Wei", "Xiu Ying", "Hao", "Mei", "Jun", "Yuki", "Haruto", "Min-jun", "Seo-yeon", "Th\u1EA3o"],
        last: ["Wang", "Li", "Zhang", "Chen", "Liu", "Tanaka", "Sato", "Kim", "Park", "Nguy\u1EC5n"],
        countries: ["US", "CA", "AU", "JP", "GB"]
      },
      {
        weight: 4,
        first: ["Omar", "Layla", "Youssef", "Fatima", "Karim", "Nour"],
        last: ["Al-Amin", "El-Sayed", "Haddad", "Khoury", "Al-Rashid", "Mansour"],
        countries: ["FR", "GB", "DE", "US"]
      },
      {
        weight: 3,
        first: ["Chidi", "Ngozi", "Tunde", "Adaeze", "Kwame", "Ama"],
        last: ["Okafor", "Adeyemi", "Mensah", "Okonkwo", "Boateng", "Eze"],
        countries: ["GB", "US"]
      },
      {
        weight: 3,
        first: ["Jo\xE3o", "Ana", "Gon\xE7alo", "Beatriz", "Thiago", "Let\xEDcia"],
        last: ["Silva", "Santos", "Concei\xE7\xE3o", "Ara\xFAjo", "Gon\xE7alves", "Magalh\xE3es"],
        countries: ["BR", "BR", "US"]
      }
    ];
    SPECIAL = { \u00DF: "ss", \u00F8: "o", \u00D8: "o", \u0142: "l", \u0141: "l", \u00E6: "ae", \u00C6: "ae", \u0111: "d", \u0110: "d", \u0153: "oe" };
    PREPARED = CULTURES.map((c) => ({
      first: c.first.map((n) => [n, slug(n)]),
      last: c.last.map((n) => [n, slug(n)]),
      countries: c.countries
    }));
    CULTURE_PICK = weightedTable(CULTURES.map((c) => c.weight));
    DEFAULT_DOMAINS = [
      ["gmail.com", 300],
      ["outlook.com", 130],
      ["yahoo.com", 90],
      ["hotmail.com", 60],
      ["icloud.com", 50],
      ["proton.me", 15],
      ["gmx.de", 20],
      ["web.de", 12],
      ["orange.fr", 12],
      ["libero.it", 8],
      ["northwind-logistics.example", 40],
      ["contoso-health.example", 35],
      ["fabrikam.example", 30],
      ["tailspin-retail.example", 25],
      // Rare ones: a handful of people each in a large run.
      ["posteo.de", 2],
      ["laposte.net", 2],
      ["seznam.cz", 1],
      ["fastmail.fm", 2],
      ["hey.com", 1],
      ["zoho.com", 1],
      ["mail.uni-example.edu", 1],
      ["tuta.io", 1]
    ];
    DOMAIN_PICK = weightedTable(DEFAULT_DOMAINS.map(([, w]) => w));
    d = (rng, n) => {
      let s = "";
      for (let i = 0; i < n; i++) s += Math.floor(rng() * 10);
      return s;
    };
    pick = (rng, xs) => xs[Math.floor(rng() * xs.length)];
    PHONE = {
      US: (r) => `+1${pick(r, ["212", "312", "415", "617", "206", "404", "512", "720", "303", "646"])}${2 + Math.floor(r() * 8)}${d(r, 2)}${d(r, 4)}`,
      CA: (r) => `+1${pick(r, ["416", "604", "514", "403", "613"])}${2 + Math.floor(r() * 8)}${d(r, 2)}${d(r, 4)}`,
      GB: (r) => `+447${pick(r, ["4", "5", "8"])}${d(r, 8)}`,
      IE: (r) => `+3538${pick(r, ["3", "5", "6", "7", "9"])}${d(r, 7)}`,
      DE: (r) => `+49${pick(r, ["151", "152", "157", "176"])}${d(r, 8)}`,
      AT: (r) => `+43${pick(r, ["650", "660", "664", "676", "699"])}${d(r, 7)}`,
      CH: (r) => `+41${pick(r, ["76", "77", "78", "79"])}${d(r, 7)}`,
      FR: (r) => `+33${pick(r, ["61", "62", "64", "65", "66", "67", "68", "75", "76", "77", "78"])}${d(r, 7)}`,
      BE: (r) => `+324${pick(r, ["7", "8", "9"])}${d(r, 7)}`,
      ES: (r) => `+346${d(r, 8)}`,
      IT: (r) => `+393${pick(r, ["2", "3", "4", "8", "9"])}${d(r, 8)}`,
      NL: (r) => `+316${1 + Math.floor(r() * 5)}${d(r, 7)}`,
      AU: (r) => `+614${pick(r, ["0", "1", "2", "3"])}${d(r, 7)}`,
      IN: (r) => `+91${pick(r, ["7", "8", "9"])}${d(r, 9)}`,
      MX: (r) => `+52${pick(r, ["55", "33", "81"])}${d(r, 8)}`,
      BR: (r) => `+55${pick(r, ["11", "21", "31"])}9${6 + Math.floor(r() * 4)}${d(r, 7)}`,
      JP: (r) => `+81${pick(r, ["70", "80", "90"])}${1 + Math.floor(r() * 9)}${d(r, 7)}`
    };
    CUSTOM_ID_GROUPS = [
      ...Array.from({ length: 12 }, (_, i) => `REQ-2026-${String(101 + i * 7).padStart(4, "0")}`),
      "cohort-spring-2026",
      "cohort-summer-2026",
      "grad-scheme",
      "warehouse-east",
      "warehouse-west",
      "store-0042",
      "store-0117",
      "call-centre-lisbon",
      "nursing-intake-q2",
      "sales-academy"
    ];
  }
});

// ../../../tmp/fairprof/main/src/stub/seed.ts
import { existsSync as existsSync2, readFileSync } from "node:fs";
import { dirname as dirname3, join as join2 } from "node:path";
import { fileURLToPath } from "node:url";
import * as z2 from "zod";
function seedFile(from = dirname3(fileURLToPath(import.meta.url))) {
  let dir = from;
  for (; ; ) {
    const file = join2(dir, "stub", "seed.json");
    if (existsSync2(file)) return file;
    const parent = dirname3(dir);
    if (parent === dir) throw new Error("Cannot find the stub's seed of jobfit (stub/seed.json beside its code).");
    dir = parent;
  }
}
function seedProblems(seed2) {
  const problems = [];
  const dup = (what, values) => {
    const seen = /* @__PURE__ */ new Set();
    for (const v of values) {
      if (seen.has(v)) problems.push(`Duplicate ${what}: ${v}.`);
      seen.add(v);
    }
  };
  const accounts = seed2.accounts;
  dup("account id", accounts.map((a) => a.id));
  dup("API key", accounts.flatMap((a) => [a.live_key, a.test_key]));
  dup("team id", accounts.flatMap((a) => a.teams.map((t) => t.id)));
  dup("user id", accounts.flatMap((a) => a.users.map((u) => u.id)));
  dup("user email", accounts.flatMap((a) => a.users.map((u) => u.email.toLowerCase())));
  dup("email template id", accounts.flatMap((a) => a.email_templates.map((t) => t.id)));
  for (const a of accounts) {
    const where = `account ${a.id}`;
    const teams = new Set(a.teams.map((t) => t.id));
    const templates = new Map(a.email_templates.map((t) => [t.id, t]));
    const users = new Map(a.users.map((u) => [u.id, u]));
    for (const sp of a.score_profiles) {
      if (!scoreProfileByShortName(sp)) problems.push(`${where}: unknown score profile ${sp}.`);
    }
    for (const t of a.email_templates) {
      for (const tid of t.team_ids) {
        if (!teams.has(tid)) problems.push(`${where}: template ${t.id} is assigned to unknown team ${tid}.`);
      }
    }
    for (const u of a.users) {
      for (const tid of u.team_ids) if (!teams.has(tid)) problems.push(`${where}: user ${u.id} is in unknown team ${tid}.`);
      if (u.default_team_id !== null && !u.team_ids.includes(u.default_team_id)) {
        problems.push(`${where}: user ${u.id} has default team ${u.default_team_id} outside their teams.`);
      }
      if (u.default_assessments.includes(TEST_ID.prescreen) && u.default_assessments.length > 1) {
        problems.push(`${where}: user ${u.id} combines Prescreen with other default assessments.`);
      }
      const checkTemplate = (tid, kind) => {
        if (tid === null) return;
        const t = templates.get(tid);
        if (!t) problems.push(`${where}: user ${u.id} has unknown default ${kind} template ${tid}.`);
        else if (t.template_type !== kind) problems.push(`${where}: user ${u.id} default template ${tid} is not a ${kind} template.`);
        else if (u.default_team_id !== null && !t.team_ids.includes(u.default_team_id)) {
          problems.push(`${where}: user ${u.id} default template ${tid} is not assigned to their default team.`);
        }
      };
      checkTemplate(u.default_invitation_email_template_id, "invitation");
      checkTemplate(u.default_congrats_email_template_id, "congrats");
    }
    const p = a.people;
    if (Date.parse(p.created_from) >= Date.parse(p.created_to)) problems.push(`${where}: people.created_from is not before created_to.`);
    for (const plan of p.teams) {
      if (!teams.has(plan.team_id)) problems.push(`${where}: people plan for unknown team ${plan.team_id}.`);
      for (const uid of plan.inviter_user_ids) {
        const u = users.get(uid);
        if (!u) problems.push(`${where}: people plan names unknown inviter ${uid}.`);
        else if (!u.team_ids.includes(plan.team_id)) problems.push(`${where}: inviter ${uid} is not in team ${plan.team_id}.`);
      }
      for (const sp of plan.target_score_profiles) {
        if (sp !== null && !a.score_profiles.includes(sp)) {
          problems.push(`${where}: team ${plan.team_id} targets score profile ${sp}, which the account has not enabled.`);
        }
      }
      for (const mix of plan.assessment_mix) {
        if (mix.test_ids.includes(TEST_ID.prescreen) && mix.test_ids.length > 1) {
          problems.push(`${where}: team ${plan.team_id} combines Prescreen with other assessments.`);
        }
      }
      if (!a.email_templates.some((t) => t.template_type === "invitation" && t.team_ids.includes(plan.team_id))) {
        problems.push(`${where}: team ${plan.team_id} has invitations planned but no invitation template.`);
      }
    }
  }
  const ranges = accounts.map((a) => [a.people.start_index, a.people.start_index + a.people.teams.reduce((n, t) => n + t.invitations, 0)]).sort((x, y) => x[0] - y[0]);
  for (let i = 1; i < ranges.length; i++) {
    if (ranges[i][0] < ranges[i - 1][1]) problems.push("people.start_index ranges of two accounts overlap.");
  }
  return problems;
}
function parseSeed(data) {
  const r = Seed.safeParse(data);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(`Invalid seed at ${issue.path.join(".") || "(root)"}: ${issue.message}.`);
  }
  const problems = seedProblems(r.data);
  if (problems.length > 0) throw new Error(`Invalid seed: ${problems[0]}`);
  return r.data;
}
function loadSeed(file) {
  const text = file === void 0 ? assetText("stub/seed.json") : void 0;
  return parseSeed(JSON.parse(text ?? readFileSync(file ?? seedFile(), "utf8")));
}
function pickWeighted(rng, items, weight) {
  const total = items.reduce((n, t) => n + weight(t), 0);
  let x = rng() * total;
  for (const t of items) {
    x -= weight(t);
    if (x < 0) return t;
  }
  return items[items.length - 1];
}
function* planEach(account) {
  const p = account.people;
  const rng = mulberry32(hashString(`plan:${p.seed}`));
  const seedHash = hashString(p.seed);
  const users = new Map(account.users.map((u) => [u.id, u]));
  const slots = p.teams.flatMap((t) => Array.from({ length: t.invitations }, () => t));
  for (let i = slots.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [slots[i], slots[j]] = [slots[j], slots[i]];
  }
  const from = Date.parse(p.created_from);
  const end = Date.parse(p.created_to);
  const span = end - from;
  const states = Object.entries(p.state_mix);
  const teamCounters = /* @__PURE__ */ new Map();
  for (let i = 0; i < slots.length; i++) {
    const plan = slots[i];
    const person_index = p.start_index + i;
    const person = personAt(person_index, seedHash);
    const n = teamCounters.get(plan.team_id) ?? 0;
    teamCounters.set(plan.team_id, n + 1);
    const inviter = users.get(plan.inviter_user_ids[n % plan.inviter_user_ids.length]);
    const invitationTemplate = inviter.default_invitation_email_template_id ?? account.email_templates.find((t) => t.template_type === "invitation" && t.team_ids.includes(plan.team_id))?.id ?? null;
    const assessments = [...pickWeighted(rng, plan.assessment_mix, (m) => m.weight).test_ids];
    let state = pickWeighted(rng, states, ([, w]) => w)[0];
    if (state === "partial" && assessments.length < 2) state = "accepted";
    const createdMs = Math.round(from + span * (i + 0.2 + rng() * 0.6) / slots.length);
    const acceptedOffset = state === "pending" ? null : Math.round((1 + rng() * 70) * HOUR);
    const completionOffsets = [];
    if (acceptedOffset !== null && (state === "partial" || state === "complete")) {
      const order = [...assessments];
      for (let k = order.length - 1; k > 0; k--) {
        const j = Math.floor(rng() * (k + 1));
        [order[k], order[j]] = [order[j], order[k]];
      }
      const howMany = state === "complete" ? order.length : 1 + Math.floor(rng() * (order.length - 1));
      const language = p.languages[Math.floor(rng() * p.languages.length)];
      let t = acceptedOffset;
      for (const test_id of order.slice(0, howMany)) {
        t += Math.round((12 + rng() * 50) * 6e4);
        completionOffsets.push({ test_id, offset: t, language });
      }
    }
    const lastOffset = completionOffsets.at(-1)?.offset ?? acceptedOffset ?? 0;
    const room = Math.max(0, end - createdMs);
    const squeeze = lastOffset > room ? room / lastOffset : 1;
    const acceptedMs = acceptedOffset === null ? null : createdMs + Math.floor(acceptedOffset * squeeze);
    const completed = completionOffsets.map((c) => ({
      test_id: c.test_id,
      completed_at: new Date(createdMs + Math.floor(c.offset * squeeze)).toISOString(),
      language: c.language
    }));
    yield {
      account_id: account.id,
      team_id: plan.team_id,
      inviter_user_id: inviter.id,
      person_index,
      person,
      send_via_email: true,
      send_via_sms: person.phone !== null && rng() < p.sms_rate,
      invitation_email_template_id: invitationTemplate,
      congrats_email_template_id: inviter.default_congrats_email_template_id,
      send_congrats_notification: inviter.default_congrats_email_template_id !== null,
      target_score_profile: plan.target_score_profiles[Math.floor(rng() * plan.target_score_profiles.length)],
      assessments,
      created_at: new Date(createdMs).toISOString(),
      state,
      accepted_at: acceptedMs === null ? null : new Date(acceptedMs).toISOString(),
      completed
    };
  }
}
var id, isoTime, testId, SeedTeam, SeedEmailTemplate, SeedUser, SeedTeamPlan, StateMix, SeedPeople, SeedAccount, Seed, HOUR;
var init_seed = __esm({
  "../../../tmp/fairprof/main/src/stub/seed.ts"() {
    "use strict";
    init_standalone();
    init_catalog2();
    init_people();
    init_random();
    id = z2.number().int().positive();
    isoTime = z2.iso.datetime();
    testId = z2.number().int().refine((n) => ASSESSMENTS.some((a) => a.id === n), "unknown test_id");
    SeedTeam = z2.strictObject({
      id,
      display_name: z2.string().min(1),
      /** Per-team webhook delivery, managed by the operator; new teams default to off. */
      webhooks_enabled: z2.boolean()
    });
    SeedEmailTemplate = z2.strictObject({
      id,
      display_name: z2.string().min(1),
      template_type: z2.enum(["invitation", "congrats"]),
      team_ids: z2.array(id)
    });
    SeedUser = z2.strictObject({
      id,
      first_name: z2.string().min(1),
      last_name: z2.string().min(1),
      email: z2.string().email(),
      team_ids: z2.array(id),
      default_team_id: id.nullable(),
      default_assessments: z2.array(testId),
      default_invitation_email_template_id: id.nullable(),
      default_congrats_email_template_id: id.nullable(),
      default_scheduling_link: z2.string().url().nullable(),
      /** Email the inviter when a test taker completes every assigned assessment. */
      notify_on_completion: z2.boolean()
    });
    SeedTeamPlan = z2.strictObject({
      team_id: id,
      invitations: z2.number().int().min(0),
      /** Inviters drawn in turn; each must belong to the team. */
      inviter_user_ids: z2.array(id).min(1),
      /** Drawn uniformly per invitation; null entries give invitations without a target profile. */
      target_score_profiles: z2.array(z2.string().nullable()).min(1),
      assessment_mix: z2.array(z2.strictObject({ test_ids: z2.array(testId).min(1), weight: z2.number().positive() })).min(1)
    });
    StateMix = z2.strictObject({
      /** Not accepted yet. */
      pending: z2.number().min(0),
      /** Accepted, nothing completed. */
      accepted: z2.number().min(0),
      /** Accepted, some but not all assigned assessments completed. */
      partial: z2.number().min(0),
      /** Every assigned assessment completed. */
      complete: z2.number().min(0)
    });
    SeedPeople = z2.strictObject({
      /** Seed of generatePeople for this account. */
      seed: z2.string().min(1),
      /** First generator index; accounts use disjoint ranges so emails never repeat across the service. */
      start_index: z2.number().int().min(0),
      created_from: isoTime,
      created_to: isoTime,
      /** Drawn per test taker for assigned_assessments[].language. */
      languages: z2.array(z2.string().min(2)).min(1),
      /** Share of invitations with a phone that are also sent by SMS. */
      sms_rate: z2.number().min(0).max(1),
      teams: z2.array(SeedTeamPlan),
      /** Relative weights of the invitation states. */
      state_mix: StateMix
    });
    SeedAccount = z2.strictObject({
      id,
      display_name: z2.string().min(1),
      live_key: z2.string().regex(/^sk_live_[0-9a-f]{32}$/),
      test_key: z2.string().regex(/^sk_test_[0-9a-f]{32}$/),
      webhook_endpoint: z2.string().url().nullable(),
      webhooks_enabled: z2.boolean(),
      /** short_names of the system score profiles enabled for the account. */
      score_profiles: z2.array(z2.string()),
      teams: z2.array(SeedTeam).min(1),
      email_templates: z2.array(SeedEmailTemplate),
      users: z2.array(SeedUser).min(1),
      people: SeedPeople
    });
    Seed = z2.strictObject({
      version: z2.literal(1),
      accounts: z2.array(SeedAccount).min(1)
    });
    HOUR = 36e5;
  }
});

// ../../../tmp/fairprof/main/src/stub/seed-adapter.ts
var seed_adapter_exports = {};
__export(seed_adapter_exports, {
  insertPlanned: () => insertPlanned,
  seedKeys: () => seedKeys,
  seedPeopleRows: () => seedPeopleRows,
  writeSeed: () => writeSeed
});
function seed() {
  cached2 ??= loadSeed();
  return cached2;
}
function writeSeed(store2) {
  const s = seed();
  const db = store2.db;
  const acc = db.prepare("INSERT INTO accounts (id, display_name, webhook_endpoint, webhook_test_endpoint, webhooks_enabled) VALUES (?, ?, ?, NULL, ?)");
  const key = db.prepare("INSERT INTO api_keys (key, account_id, mode) VALUES (?, ?, ?)");
  const sp = db.prepare("INSERT OR IGNORE INTO account_score_profiles (account_id, score_profile_id) VALUES (?, ?)");
  const team = db.prepare("INSERT INTO teams (id, account_id, display_name, webhooks_enabled) VALUES (?, ?, ?, ?)");
  const tpl = db.prepare("INSERT INTO templates (id, account_id, display_name, template_type) VALUES (?, ?, ?, ?)");
  const tplTeam = db.prepare("INSERT OR IGNORE INTO template_teams (template_id, team_id) VALUES (?, ?)");
  const user = db.prepare(
    `INSERT INTO users (id, account_id, first_name, last_name, email, email_lc, default_team_id, default_test_ids,
      default_invitation_template_id, default_congrats_template_id, default_scheduling_link, send_congrats_notification, notify_on_completion)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  );
  const userTeam = db.prepare("INSERT OR IGNORE INTO user_teams (user_id, team_id) VALUES (?, ?)");
  let nextIndex = 0;
  for (const a of s.accounts) {
    acc.run(a.id, a.display_name, a.webhook_endpoint, a.webhooks_enabled ? 1 : 0);
    key.run(a.live_key, a.id, "live");
    key.run(a.test_key, a.id, "test");
    for (const name of a.score_profiles) {
      const p = scoreProfileByShortName(name);
      if (p) sp.run(a.id, p.id);
    }
    for (const t of a.teams) team.run(t.id, a.id, t.display_name, t.webhooks_enabled ? 1 : 0);
    for (const t of a.email_templates) {
      tpl.run(t.id, a.id, t.display_name, t.template_type);
      for (const tid of t.team_ids) tplTeam.run(t.id, tid);
    }
    for (const u of a.users) {
      user.run(
        u.id,
        a.id,
        u.first_name,
        u.last_name,
        u.email,
        u.email.toLowerCase(),
        u.default_team_id,
        JSON.stringify(u.default_assessments),
        u.default_invitation_email_template_id,
        u.default_congrats_email_template_id,
        u.default_scheduling_link,
        u.default_congrats_email_template_id !== null ? 1 : 0,
        u.notify_on_completion ? 1 : 0
      );
      for (const tid of u.team_ids) userTeam.run(u.id, tid);
    }
    const planned = insertPlanned(store2, planEach(a));
    nextIndex = Math.max(nextIndex, a.people.start_index + planned.invitations);
  }
  store2.setMeta("people_next_index", String(nextIndex));
}
function insertPlanned(store2, planned) {
  const db = store2.db;
  const insInv = db.prepare(
    `INSERT INTO invitations (account_id, team_id, invited_by_user_id, created_at, accepted_at, first_name, last_name, email, email_lc,
      send_via_email, phone, send_via_sms, custom_id, person_id, invitation_template_id, ref_text, congrats_template_id,
      send_congrats_notification, target_score_profile_id, token, test_taker_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, NULL)`
  );
  const insInvA = db.prepare("INSERT INTO invitation_assessments (invitation_id, test_id, position) VALUES (?, ?, ?)");
  const insTT = db.prepare(
    `INSERT INTO test_takers (account_id, team_id, invitation_id, created_at, first_name, last_name, email, email_lc, phone, custom_id, person_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  );
  const setTT = db.prepare("UPDATE invitations SET test_taker_id = ? WHERE id = ?");
  const insAA = db.prepare("INSERT INTO assigned_assessments (test_taker_id, test_id, position, completed_at, language) VALUES (?, ?, ?, ?, ?)");
  const insCnp = db.prepare("INSERT INTO career_navigation_profiles (id, account_id, test_taker_id, created_at, seq) VALUES (?, ?, ?, ?, ?)");
  let cnpSeq = Number(store2.meta("cnp_seq") ?? "0");
  let testTakers = 0;
  let completed = 0;
  let firstId = null;
  let firstTT = null;
  let invitations = 0;
  for (const p of planned) {
    invitations++;
    const person = p.person;
    const emailLc = person.email.toLowerCase();
    const target = p.target_score_profile ? scoreProfileByShortName(p.target_score_profile)?.id ?? null : null;
    const r = insInv.run(
      p.account_id,
      p.team_id,
      p.inviter_user_id,
      p.created_at,
      p.accepted_at,
      person.first_name,
      person.last_name,
      person.email,
      emailLc,
      p.send_via_email ? 1 : 0,
      person.phone,
      p.send_via_sms ? 1 : 0,
      person.custom_id,
      person.person_id,
      p.invitation_email_template_id,
      p.congrats_email_template_id,
      p.send_congrats_notification ? 1 : 0,
      target,
      newToken()
    );
    const invId = Number(r.lastInsertRowid);
    firstId ??= invId;
    p.assessments.forEach((t, pos) => {
      insInvA.run(invId, t, pos);
    });
    if (p.accepted_at === null) continue;
    const tt = insTT.run(p.account_id, p.team_id, invId, p.accepted_at, person.first_name, person.last_name, person.email, emailLc, person.phone, person.custom_id, person.person_id);
    const ttId = Number(tt.lastInsertRowid);
    firstTT ??= ttId;
    setTT.run(ttId, invId);
    testTakers++;
    const done = new Map(p.completed.map((c) => [c.test_id, c]));
    p.assessments.forEach((t, pos) => {
      const c = done.get(t);
      insAA.run(ttId, t, pos, c?.completed_at ?? null, c?.language ?? null);
    });
    if (p.completed.length === p.assessments.length) completed++;
    const interests = done.get(TEST_ID.interests);
    if (interests) insCnp.run(newProfileId(), p.account_id, ttId, interests.completed_at, ++cnpSeq);
  }
  if (firstId !== null) indexFrom(store2, "invitations", firstId);
  if (firstTT !== null) indexFrom(store2, "test_takers", firstTT);
  store2.setMeta("cnp_seq", String(cnpSeq));
  return { invitations, testTakers, completed, firstId };
}
function seedPeopleRows(store2, accountId, teamId, count, opts = {}) {
  const account = seed().accounts.find((a) => a.id === accountId);
  if (!account) throw new Error(`Account ${accountId} is not in the seed.`);
  if (!account.teams.some((t) => t.id === teamId)) throw new Error(`Team ${teamId} is not in account ${accountId}.`);
  const basePlan = account.people.teams.find((t) => t.team_id === teamId) ?? account.people.teams[0];
  const inviters = account.users.filter((u) => u.team_ids.includes(teamId) && u.default_assessments.length > 0).map((u) => u.id);
  const fallbackInviter = account.users.find((u) => u.team_ids.includes(teamId))?.id ?? account.users[0].id;
  const start = Number(store2.meta("people_next_index") ?? "0");
  store2.setMeta("people_next_index", String(start + count));
  const now = (opts.now ?? /* @__PURE__ */ new Date()).getTime();
  const days = opts.days ?? 90;
  const synthetic = {
    ...account,
    people: {
      ...account.people,
      start_index: start,
      created_from: new Date(now - days * 864e5).toISOString(),
      created_to: new Date(now).toISOString(),
      teams: [
        {
          team_id: teamId,
          invitations: count,
          inviter_user_ids: inviters.length > 0 ? inviters : [fallbackInviter],
          target_score_profiles: basePlan?.target_score_profiles ?? [null],
          assessment_mix: basePlan?.assessment_mix ?? [{ test_ids: [6, 7, 8], weight: 1 }]
        }
      ],
      state_mix: { ...account.people.state_mix, ...opts.mix ?? {} }
    }
  };
  return insertPlanned(store2, planEach(synthetic));
}
function seedKeys() {
  return seed().accounts.map((a) => ({ account_id: a.id, display_name: a.display_name, live_key: a.live_key, test_key: a.test_key }));
}
var cached2;
var init_seed_adapter = __esm({
  "../../../tmp/fairprof/main/src/stub/seed-adapter.ts"() {
    "use strict";
    init_catalog2();
    init_seed();
    init_search_index();
    init_ids();
  }
});

// ../../../tmp/fairprof/bytes-main.mts
import { createHash } from "node:crypto";

// ../../../tmp/fairprof/main/src/stub/app.ts
init_messages();

// ../../../tmp/fairprof/main/src/api/routes.ts
var JSON_TYPE = "application/json";
var ID = { invitationId: "integer" };
var TT = { testTakerId: "integer" };
var ROUTES = {
  healthcheck: { method: "GET", path: "/healthcheck", summary: "Service health (no key)", auth: false, kind: "item", contentType: JSON_TYPE, status: 200, response: "Healthcheck", testKey: "none" },
  getAccount: { method: "GET", path: "/accounts", summary: "The account linked to the key", auth: true, kind: "item", contentType: JSON_TYPE, status: 200, response: "Account", testKey: "fake" },
  listUsers: { method: "GET", path: "/users", summary: "Users of the account", auth: true, kind: "list", contentType: JSON_TYPE, status: 200, response: "UserList", testKey: "fake" },
  listTeams: { method: "GET", path: "/teams", summary: "Teams of the account", auth: true, kind: "list", contentType: JSON_TYPE, status: 200, response: "TeamList", testKey: "fake" },
  listEmailTemplates: { method: "GET", path: "/email-templates", summary: "Email templates with the teams they are assigned to", auth: true, kind: "list", contentType: JSON_TYPE, status: 200, response: "EmailTemplateList", testKey: "fake" },
  createInvitation: { method: "POST", path: "/invitations", summary: "Create an invitation", auth: true, body: "CreateInvitationBody", kind: "item", contentType: JSON_TYPE, status: 201, response: "Invitation", testKey: "fake" },
  listInvitations: { method: "GET", path: "/invitations", summary: "List invitations, newest first", auth: true, query: "ListQuery", kind: "list", contentType: JSON_TYPE, status: 200, response: "InvitationList", testKey: "fake" },
  getInvitation: { method: "GET", path: "/invitations/:invitationId", summary: "One invitation", auth: true, params: ID, kind: "item", contentType: JSON_TYPE, status: 200, response: "Invitation", testKey: "fake" },
  updateInvitation: { method: "PUT", path: "/invitations/:invitationId", summary: "Update an invitation", auth: true, params: ID, body: "UpdateInvitationBody", kind: "item", contentType: JSON_TYPE, status: 200, response: "Invitation", testKey: "fake" },
  listTestTakers: { method: "GET", path: "/test-takers", summary: "List test takers, newest first", auth: true, query: "ListQuery", kind: "list", contentType: JSON_TYPE, status: 200, response: "TestTakerList", testKey: "fake" },
  getTestTaker: { method: "GET", path: "/test-takers/:testTakerId", summary: "One test taker", auth: true, params: TT, kind: "item", contentType: JSON_TYPE, status: 200, response: "TestTaker", testKey: "fake" },
  getScorecard: { method: "GET", path: "/test-takers/:testTakerId/scorecard", summary: "Scorecard for a score profile (sp)", auth: true, params: TT, query: "ScorecardQuery", kind: "item", contentType: JSON_TYPE, status: 200, response: "Scorecard", testKey: "fake" },
  getJobFitReport: { method: "GET", path: "/test-takers/:testTakerId/job-fit-report", summary: "Job fit report", auth: true, params: TT, kind: "item", contentType: JSON_TYPE, status: 200, response: "JobFitReport", testKey: "fake" },
  listCareerNavigationProfiles: { method: "GET", path: "/career-navigation-profiles", summary: "Career navigation profiles", auth: true, kind: "list", contentType: JSON_TYPE, status: 200, response: "CareerNavigationProfileList", testKey: "fake" },
  getCareerNavigationProfile: {
    method: "GET",
    path: "/career-navigation-profiles/:careerNavigationProfileId",
    summary: "One career navigation profile (404 with a null body when not found)",
    auth: true,
    params: { careerNavigationProfileId: "string" },
    kind: "item",
    contentType: JSON_TYPE,
    status: 200,
    response: "CareerNavigationProfile",
    nullWhenMissing: true,
    testKey: "fake"
  },
  listAssessments: { method: "GET", path: "/assessments", summary: "Assessment catalog (real even with a test key)", auth: true, kind: "list", contentType: JSON_TYPE, status: 200, response: "AssessmentList", testKey: "real" },
  listScoreProfiles: { method: "GET", path: "/score-profiles", summary: "System score profiles enabled for the account", auth: true, kind: "list", contentType: JSON_TYPE, status: 200, response: "ScoreProfileList", testKey: "fake" }
};
var ROUTE_NAMES = Object.keys(ROUTES);
var LIST_ROUTES = new Set(ROUTE_NAMES.filter((n) => ROUTES[n].kind === "list"));

// ../../../tmp/fairprof/main/src/stub/app.ts
init_group_commit();

// ../../../tmp/fairprof/main/src/stub/http/body.ts
init_messages();
init_reply();
var MAX_BODY = 1048576;
var DRAIN_MAX_BYTES = 64 * MAX_BODY;
var tooLargeReply = () => ({ ...error(413, MSG.bodyTooLarge), headers: { connection: "close" } });
function parseJsonText(text) {
  if (Buffer.byteLength(text) > MAX_BODY) throw new HttpError(tooLargeReply());
  return parseJson(text);
}
function parseJson(text) {
  let value;
  try {
    value = text.trim() === "" ? void 0 : JSON.parse(text);
  } catch {
    fail(MSG.invalidJson);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) fail(MSG.bodyNotObject);
  return value;
}

// ../../../tmp/fairprof/main/src/stub/http/auth.ts
init_messages();
init_reply();
function authenticate(store2, header) {
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!m) return error(404, MSG.apiKeyRequired);
  const key = m[1];
  const row = store2.get(
    'SELECT k.account_id, k.mode, a.id AS "exists" FROM api_keys k LEFT JOIN accounts a ON a.id = k.account_id WHERE k.key = ?',
    key
  );
  if (!row) return error(404, MSG.apiKeyRequired);
  if (row.exists === null) return error(404, MSG.accountNotFound);
  return { accountId: row.account_id, mode: row.mode };
}

// ../../../tmp/fairprof/main/src/stub/http/cache.ts
var CACHE_MAX = 2e3;
var BODY_BYTES_MAX = 8 << 20;
var StubCaches = class {
  constructor(store2, commits) {
    this.store = store2;
    this.commits = commits;
  }
  store;
  commits;
  /** Configuration reads (AppOptions → Call.refs); emptied with the key lookups. */
  refs = /* @__PURE__ */ new Map();
  auths = /* @__PURE__ */ new Map();
  authsVersion = "";
  bodies = /* @__PURE__ */ new Map();
  bodyBytes = 0;
  // data_version moves when another connection commits; total_changes() when this one writes.
  // `config` leaves out the rows the group commit wrote (new invitations and
  // their assessments and outbox lines), which touch neither keys nor configuration.
  config = "";
  turnVersion = "";
  versionWrites = -1;
  /** The database's version now (see above); call before auth(). */
  version() {
    if (this.versionWrites === this.store.writes) return this.turnVersion;
    const r = this.store.get("SELECT data_version AS v, total_changes() AS c FROM pragma_data_version");
    this.config = `${r.v}:${r.c - this.commits.ownChanges}`;
    this.turnVersion = `${r.v}:${r.c}`;
    this.versionWrites = this.store.writes;
    setImmediate(() => {
      this.versionWrites = -1;
    }).unref();
    return this.turnVersion;
  }
  /** The caller of an Authorization header, remembered while the configuration is unchanged. */
  auth(header) {
    if (this.authsVersion !== this.config || this.auths.size >= CACHE_MAX || this.refs.size >= CACHE_MAX) {
      this.auths.clear();
      this.refs.clear();
      this.authsVersion = this.config;
    }
    const k = header ?? "";
    let a = this.auths.get(k);
    if (a === void 0) {
      a = authenticate(this.store, header);
      this.auths.set(k, a);
    }
    return a;
  }
  /** The serialised body answered for `key` at `version`, if any. */
  body(key, version) {
    const hit = this.bodies.get(key);
    return hit && hit.version === version ? { status: hit.status, raw: hit.body } : void 0;
  }
  remember(key, version, status, body2) {
    this.bodyBytes -= this.bodies.get(key)?.body.length ?? 0;
    this.bodies.delete(key);
    if (this.bodies.size >= CACHE_MAX || this.bodyBytes + body2.length > BODY_BYTES_MAX) {
      this.bodies.clear();
      this.bodyBytes = 0;
    }
    if (body2.length > BODY_BYTES_MAX) return;
    this.bodies.set(key, { version, status, body: body2 });
    this.bodyBytes += body2.length;
  }
};

// ../../../tmp/fairprof/main/src/stub/app.ts
init_reply();

// ../../../tmp/fairprof/main/src/api/route-match.ts
var METHOD_ORDER = ["GET", "POST", "PUT"];
var bucketOf = (length, first) => `${length}/${first ?? "*"}`;
function compile() {
  const byPath = /* @__PURE__ */ new Map();
  for (const name of ROUTE_NAMES) {
    const line = ROUTES[name];
    let p = byPath.get(line.path);
    if (!p) {
      p = { segs: line.path.slice(1).split("/").map((s) => s.startsWith(":") ? null : s), methods: {}, allowed: [] };
      byPath.set(line.path, p);
    }
    p.methods[line.method] = name;
  }
  const buckets = /* @__PURE__ */ new Map();
  for (const p of byPath.values()) {
    p.allowed = METHOD_ORDER.filter((m) => p.methods[m] !== void 0);
    const key = bucketOf(p.segs.length, p.segs[0]);
    buckets.set(key, [...buckets.get(key) ?? [], p]);
  }
  return buckets;
}
var BUCKETS = compile();
function matchIn(list2, seg) {
  if (!list2) return null;
  for (const p of list2) {
    const params = [];
    let ok = true;
    for (let i = 0; i < seg.length; i++) {
      const want = p.segs[i];
      if (want === null) params.push(seg[i]);
      else if (want !== seg[i]) {
        ok = false;
        break;
      }
    }
    if (ok) return { path: p, params };
  }
  return null;
}
function matchRoute(seg) {
  if (seg.length === 0) return null;
  return matchIn(BUCKETS.get(bucketOf(seg.length, seg[0])), seg) ?? matchIn(BUCKETS.get(bucketOf(seg.length, null)), seg);
}

// ../../../tmp/fairprof/main/src/stub/routes/index.ts
init_reply();
init_ids();
var healthcheck = () => json(200, { status: "ok", timestamp: nowIso(), version: "v2" });
var HANDLERS = {
  healthcheck: async () => healthcheck,
  getAccount: async () => (await Promise.resolve().then(() => (init_accounts(), accounts_exports))).getAccount,
  listUsers: async () => (await Promise.resolve().then(() => (init_users(), users_exports))).listUsers,
  listTeams: async () => (await Promise.resolve().then(() => (init_teams(), teams_exports))).listTeams,
  listEmailTemplates: async () => (await Promise.resolve().then(() => (init_templates(), templates_exports))).listEmailTemplates,
  createInvitation: async () => (await Promise.resolve().then(() => (init_invitations(), invitations_exports))).createInvitation,
  listInvitations: async () => (await Promise.resolve().then(() => (init_invitations(), invitations_exports))).listInvitations,
  getInvitation: async () => (await Promise.resolve().then(() => (init_invitations(), invitations_exports))).getInvitation,
  updateInvitation: async () => (await Promise.resolve().then(() => (init_invitations(), invitations_exports))).updateInvitation,
  listTestTakers: async () => (await Promise.resolve().then(() => (init_test_takers(), test_takers_exports))).listTestTakers,
  getTestTaker: async () => (await Promise.resolve().then(() => (init_test_takers(), test_takers_exports))).getTestTaker,
  getScorecard: async () => (await Promise.resolve().then(() => (init_results2(), results_exports))).getScorecard,
  getJobFitReport: async () => (await Promise.resolve().then(() => (init_results2(), results_exports))).getJobFitReport,
  listCareerNavigationProfiles: async () => (await Promise.resolve().then(() => (init_profiles(), profiles_exports))).listProfiles,
  getCareerNavigationProfile: async () => (await Promise.resolve().then(() => (init_profiles(), profiles_exports))).getProfile,
  listAssessments: async () => (await Promise.resolve().then(() => (init_assessments(), assessments_exports))).listAssessments,
  listScoreProfiles: async () => (await Promise.resolve().then(() => (init_assessments(), assessments_exports))).listScoreProfiles
};
var loaded = /* @__PURE__ */ new Map();
function handlerOf(name) {
  return loaded.get(name) ?? HANDLERS[name]().then((h2) => {
    loaded.set(name, h2);
    return h2;
  });
}

// ../../../tmp/fairprof/main/src/stub/app.ts
function safeDecode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
function appOf(opts) {
  return { opts, store: opts.store, caches: new StubCaches(opts.store, groupCommitOf(opts.store)), loggedFaults: /* @__PURE__ */ new Set(), origin: { version: "", value: "" } };
}
function originAt(app, version) {
  if (app.origin.version !== version) app.origin = { version, value: app.opts.origin() };
  return app.origin.value;
}
function faultReply({ store: store2, loggedFaults }, err) {
  const disk = store2.diskError(err);
  if (disk) {
    store2.noteDiskCondition(disk.condition);
    return error(disk.condition === "full" ? 507 : 503, MSG.notStored(disk.reason));
  }
  const message = err instanceof Error ? err.message : String(err);
  if (!loggedFaults.has(message) && loggedFaults.size < 100) {
    loggedFaults.add(message);
    store2.warn(err instanceof Error && err.stack ? err.stack : message);
  }
  return error(500, "Internal server error");
}
async function route(app, req, method, path, search) {
  const { store: store2, caches } = app;
  const seg = path.split("/");
  if (seg[seg.length - 1] === "" && seg.length > 2) seg.pop();
  if (seg[1] === "v1") {
    const { handleV1: handleV12 } = await Promise.resolve().then(() => (init_v1(), v1_exports));
    return handleV12(store2, app.opts.origin(), method, seg.slice(2), new URLSearchParams(search), req.body, req.headers["content-type"]);
  }
  if (seg[1] !== "v2") return null;
  const m = matchRoute(seg.slice(2).map(safeDecode));
  if (!m) return error(404, MSG.notFound);
  const name = m.path.methods[method];
  if (name === void 0) return methodNotAllowed(m.path.allowed);
  if (!ROUTES[name].auth) return (await handlerOf(name))();
  const version = caches.version();
  const auth = caches.auth(req.headers.authorization);
  if ("status" in auth) return auth;
  const cacheable = method === "GET" && auth.mode === "live";
  let cacheKey = "";
  if (cacheable) {
    cacheKey = `${auth.accountId} ${path}?${search}`;
    const hit = caches.body(cacheKey, version);
    if (hit) return hit;
  }
  const handler = await handlerOf(name);
  const reply = await handleRoute(app, handler, { params: m.params, method, search, auth, origin: originAt(app, version) }, req);
  if (cacheable && "json" in reply) {
    const body2 = Buffer.from(JSON.stringify(reply.json));
    caches.remember(cacheKey, version, reply.status, body2);
    return { status: reply.status, raw: body2, headers: reply.headers };
  }
  return reply;
}
async function handleRoute(app, handler, call, req) {
  try {
    return await handler({
      store: app.store,
      origin: call.origin,
      method: call.method,
      params: call.params,
      query: new URLSearchParams(call.search),
      auth: call.auth,
      body: req.body,
      refs: app.caches.refs,
      minimal: app.opts.minimalFields
    });
  } catch (err) {
    if (err instanceof HttpError) return err.reply;
    throw err;
  }
}
function createAnswerer(opts) {
  const app = appOf(opts);
  return async (rawMethod, url, headers, body2) => {
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    const method = rawMethod === "HEAD" ? "GET" : rawMethod;
    try {
      return await route(app, { headers, body: async () => parseJsonText(body2) }, method, path, q < 0 ? "" : url.slice(q + 1)) ?? error(404, MSG.notFound);
    } catch (err) {
      return err instanceof HttpError ? err.reply : faultReply(app, err);
    }
  };
}

// ../../../tmp/fairprof/bytes-main.mts
init_reply();

// ../../../tmp/fairprof/main/src/stub/seeded-store.ts
init_store();
var SEED_VERSION = "1";
var SEED_META = ["seeded", "cnp_seq", "people_next_index"];
var seedAdapter = () => Promise.resolve().then(() => (init_seed_adapter(), seed_adapter_exports));
var SeededStore = class extends Store {
  get seeded() {
    return this.meta("seeded") === SEED_VERSION;
  }
  /** Seeds a fresh store. Two processes opening a new directory at once seed it exactly once. */
  async ensureSeeded() {
    if (this.seeded) return;
    const { writeSeed: writeSeed2 } = await seedAdapter();
    this.withLargeCache(
      () => this.write(() => {
        if (this.seeded) return;
        this.fill(writeSeed2);
      })
    );
  }
  /** Restores the seed: every record the service or a command wrote is gone. */
  async reset() {
    const { writeSeed: writeSeed2 } = await seedAdapter();
    this.refCache.clear();
    this.withLargeCache(
      () => this.write(() => {
        this.clear();
        this.run(`DELETE FROM meta WHERE key IN (${SEED_META.map(() => "?").join(", ")})`, ...SEED_META);
        this.fill(writeSeed2);
      })
    );
  }
  /**
   * Adds `count` invitations (with test takers, completions and profiles per
   * the state mix) to a team: prepared statements in one transaction, about a
   * second per 100,000. No events and no outbox: seeded history, not activity.
   */
  async seedPeople(accountId, teamId, count, opts = {}) {
    const { seedPeopleRows: seedPeopleRows2 } = await seedAdapter();
    return this.withLargeCache(() => this.write(() => seedPeopleRows2(this, accountId, teamId, count, opts)));
  }
  fill(writeSeed2) {
    this.startIdRanges();
    writeSeed2(this);
    this.setMeta("seeded", SEED_VERSION);
  }
};
async function openStore(dataDir) {
  const store2 = new SeededStore(dataDir);
  try {
    await store2.ensureSeeded();
  } catch (err) {
    store2.close();
    throw store2.diskError(err) ?? err;
  }
  return store2;
}

// ../../../tmp/fairprof/bytes-main.mts
init_store();

// ../../../tmp/fairprof/main/src/stub/in-process.ts
init_reply();

// ../../../tmp/fairprof/main/src/stub/embedded.ts
init_store();
function stubKeys(store2) {
  return store2.all(
    `SELECT a.id AS account_id, a.display_name,
       (SELECT key FROM api_keys WHERE account_id = a.id AND mode = 'live') AS live_key,
       (SELECT key FROM api_keys WHERE account_id = a.id AND mode = 'test') AS test_key
     FROM accounts a ORDER BY a.id`
  );
}

// ../../../tmp/fairprof/bytes-main.mts
var store = await openStore("/tmp/fairprof/config/stub");
var answer = createAnswerer({ store, origin: () => originOf(store) });
var h = { authorization: `Bearer ${stubKeys(store)[0].live_key}` };
var hash = createHash("sha256");
var ids = store.all("SELECT id FROM test_takers ORDER BY id").map((r) => r.id);
ids.push(999, 499999, 6e5);
var body = async (p) => {
  const r = await p;
  const parts = replyParts(r);
  return `${r.status} ${typeof parts.body === "string" ? parts.body : parts.body.toString("utf8")}`;
};
for (let i = 0; i < ids.length; i += 8) {
  const chunk = ids.slice(i, i + 8);
  const mode = i % 3;
  const outs = await Promise.all(chunk.flatMap((id2) => {
    const sc = () => body(answer("GET", `/v2/test-takers/${id2}/scorecard?sp=sales-rep`, h, ""));
    const tt = () => body(answer("GET", `/v2/test-takers/${id2}`, h, ""));
    const jf = () => body(answer("GET", `/v2/test-takers/${id2}/job-fit-report`, h, ""));
    return mode === 0 ? [sc(), tt()] : mode === 1 ? [tt(), sc(), jf()] : [tt(), jf()];
  }));
  for (const o of outs) hash.update(o).update("\n");
}
console.log(ids.length, hash.digest("hex"));
store.close();

// ESLint flat config: typescript-eslint's recommended rules over the whole tree.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The floors of src/ (docs/architecture.md), bottom up: a folder may import
 * its own floor's files and the folders listed for it, nothing above. An
 * import that runs back up is a lint error naming the floor.
 */
const FLOORS = {
  core: [],
  api: ['core'],
  config: ['core', 'api'],
  client: ['core', 'api', 'config'],
  stub: ['core', 'api'],
  format: ['core', 'api', 'config', 'client'],
  listing: ['core', 'api', 'config', 'client', 'format'],
  export: ['core', 'api', 'config', 'client', 'format', 'listing'],
  sync: ['core', 'api', 'config', 'client', 'format', 'listing', 'export'],
  bulk: ['core', 'api', 'config', 'client', 'format', 'listing', 'export'],
  webhook: ['core', 'api', 'config', 'client', 'format', 'listing', 'export', 'sync'],
  fairness: ['core', 'api', 'config', 'client', 'format', 'listing', 'export', 'bulk'],
  lib: ['core', 'api', 'config', 'client', 'stub', 'format', 'listing', 'export', 'sync', 'bulk', 'webhook', 'fairness'],
  commands: ['core', 'api', 'config', 'client', 'stub', 'format', 'listing', 'export', 'sync', 'bulk', 'webhook', 'fairness'],
  cli: ['core', 'api', 'config', 'client', 'stub', 'format', 'listing', 'export', 'sync', 'bulk', 'webhook', 'fairness', 'commands'],
};
const TOP = [...Object.keys(FLOORS), 'types'];
const floorRules = Object.entries(FLOORS).map(([dir, allowed]) => {
  const above = TOP.filter((d) => d !== dir && d !== 'types' && !allowed.includes(d));
  const regex = `^(\\.\\./)+(${above.join('|')})(/|$)`;
  const message = `src/${dir}/ may import only ${allowed.length ? allowed.map((d) => `src/${d}/`).join(', ') : 'nothing of ours'} (the floors: docs/architecture.md).`;
  return {
    files: [`src/${dir}/**/*.ts`],
    rules: {
      // import() too: a lazy import that runs back up is still an arrow up.
      'no-restricted-syntax': ['error', { selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\/')}/]`, message }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex, message },
          ],
        },
      ],
    },
  };
});

/**
 * Rooms inside a floor (docs/architecture.md, "commands/"): the kit is the
 * toolkit and knows no noun, and what several nouns share knows none of them.
 * Each pattern joins its floor's own (a later config would replace them).
 */
const ROOMS = {
  'commands/kit': { regex: '^\\.\\./[^./][^/]*/', message: 'src/commands/kit/ is the toolkit: it imports no noun and nothing nouns share (docs/architecture.md).' },
  'commands/shared': { regex: '^\\.\\./(?!kit/)[^./][^/]*/', message: 'src/commands/shared/ may import the kit, never a noun (docs/architecture.md).' },
};
const roomRules = Object.entries(ROOMS).map(([dir, room]) => {
  const floor = floorRules.find((r) => r.files[0] === `src/${dir.split('/')[0]}/**/*.ts`);
  const [, ...syntax] = floor.rules['no-restricted-syntax'];
  const [, { patterns }] = floor.rules['no-restricted-imports'];
  return {
    files: [`src/${dir}/**/*.ts`],
    rules: {
      'no-restricted-syntax': ['error', ...syntax, { selector: `ImportExpression[source.value=/${room.regex.replaceAll('/', '\\/')}/]`, message: room.message }],
      'no-restricted-imports': ['error', { patterns: [...patterns, room] }],
    },
  };
});

/**
 * The pages we write (src/format/html/) are markup escaped by construction:
 * markup is written only inside the `html` and `style` tags (./html.ts), which
 * escape every value put into them. A string or an untagged template holding
 * markup (`<` and a letter, `/`, `!` or `?`) there is an error (the fairness
 * page, src/fairness/html.ts, too), so no page part can be built by concatenation
 * around the tag (test/lint/html.test.ts). html.ts itself, the tag, is exempt.
 */
const HTML_ONLY_THROUGH_THE_TAG = (() => {
  const floor = floorRules.find((r) => r.files[0] === 'src/format/**/*.ts');
  const [, ...syntax] = floor.rules['no-restricted-syntax'];
  const message = 'markup in a page is written only inside html`…` (src/format/html/html.ts), which escapes every value.';
  const markup = [
    { selector: 'Literal[value=/<[a-zA-Z!/?]/]', message },
    { selector: 'TemplateElement[value.raw=/<[a-zA-Z!/?]/]:not(TaggedTemplateExpression[tag.name=/^(html|style)$/] > TemplateLiteral > TemplateElement)', message },
  ];
  return [
    { files: ['src/format/html/**/*.ts'], ignores: ['src/format/html/html.ts'], rules: { 'no-restricted-syntax': ['error', ...syntax, ...markup] } },
    // The fairness page (a floor of its own, with no syntax rule to keep).
    { files: ['src/fairness/html.ts'], rules: { 'no-restricted-syntax': ['error', ...markup] } },
  ];
})();

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', '.tmp/', '.tmpbench/', 'docs/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', URLSearchParams: 'readonly',
        setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly',
        setImmediate: 'readonly', queueMicrotask: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly',
        TextDecoder: 'readonly', TextEncoder: 'readonly', fetch: 'readonly', performance: 'readonly',
        structuredClone: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly', globalThis: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'warn',
      'no-control-regex': 'off',
    },
  },
  ...floorRules,
  ...roomRules,
  ...HTML_ONLY_THROUGH_THE_TAG,
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

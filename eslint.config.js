// Lint rules that catch what the type checker does not: promises nobody awaits (a lost error or an
// unordered write), and imports across the boundaries of the layout (README's map).
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = [
  'node:*',
  'fs',
  'path',
  'os',
  'crypto',
  'child_process',
  'url',
  'util',
  'events',
  'stream',
  'net',
  'http',
  'https',
];
const pattern = (group, message) => ({ group, message });

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.tmp/**', '.wrangler/**', 'extension/**', 'plv8-compat/**', '.deps/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // The one constraint compiler serves SQL (plv8), the library and the edge: pure, no surface, no Node.
    files: ['src/grammar/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            pattern(
              ['../client/*', '../cli/*', '../engine/*', '../extension/*', '../edge/*', '../model/*', '../../worker/*'],
              'src/grammar imports nothing of the surfaces',
            ),
            // Decoding builds on the compiler (stop strings recognize its GBNF): the arrow runs one way.
            pattern(
              ['../decode/*'],
              'src/grammar imports nothing of src/decode: what both need lives in src/automaton',
            ),
            pattern(NODE_BUILTINS, 'src/grammar runs inside PostgreSQL (plv8) and workerd: no Node APIs'),
          ],
        },
      ],
    },
  },
  {
    // Expressions over code points and their automaton: below both the compiler and the decoder.
    files: ['src/automaton/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            pattern(['../*'], 'src/automaton imports nothing outside itself'),
            pattern(NODE_BUILTINS, 'src/automaton runs inside PostgreSQL (plv8) and workerd: no Node APIs'),
          ],
        },
      ],
    },
  },
  {
    // The contract between the extension and the worker: bundled into plv8 and read by the worker, so
    // pure, and neither side's (the engine's types alone, for InferenceEngine: `import type`).
    files: ['src/queue/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            pattern(
              ['../client/*', '../cli/*', '../extension/*', '../edge/*', '../model/*', '../../worker/*'],
              'src/queue belongs to neither side',
            ),
            pattern(NODE_BUILTINS, 'src/queue runs inside PostgreSQL (plv8): no Node APIs'),
          ],
        },
      ],
    },
  },
  {
    // The worker meets the extension only through the queue's contract (src/queue) and SQL.
    files: ['worker/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            pattern(['../src/extension/*'], 'worker/ imports nothing of src/extension: the contract is src/queue'),
          ],
        },
      ],
    },
  },
  {
    // The vectorizer's chunking and format templates: pure, shared by the extension (plv8) and the worker.
    files: ['src/vectorizer/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            pattern(['../*'], 'src/vectorizer imports nothing outside itself'),
            pattern(NODE_BUILTINS, 'src/vectorizer runs inside PostgreSQL (plv8): no Node APIs'),
          ],
        },
      ],
    },
  },
  {
    // The prompt registry's template language: pure, bundled into plv8.
    files: ['src/prompt/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            pattern(['../*'], 'src/prompt imports nothing outside itself'),
            pattern(NODE_BUILTINS, 'src/prompt runs inside PostgreSQL (plv8): no Node APIs'),
          ],
        },
      ],
    },
  },
  {
    // Bundled into the extension script and run by plv8: only the grammar compiler, the vectorizer's chunking, the prompt templates, the decoding rules (sampling, stop strings) and itself.
    files: ['src/extension/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            pattern(
              ['../client/*', '../cli/*', '../engine/*', '../edge/*', '../model/*', '../../worker/*'],
              'src/extension imports only src/grammar, src/vectorizer, src/prompt, src/decode, src/automaton and src/queue',
            ),
            pattern(
              [...NODE_BUILTINS, 'pg', 'node-llama-cpp'],
              'src/extension runs inside PostgreSQL (plv8): no Node APIs or Node packages',
            ),
          ],
        },
      ],
    },
  },
);

// Builds web/src/sentence-tagger.js, the lazily loaded sentence tagger, on its own:
//   - `compromise-src/…` imports reach compromise's source modules (its package exports only
//     whole builds), so the bundle takes its first level and its part-of-speech tagger alone;
//   - compromise's lexicon is trimmed to the word classes below: closed classes (pronouns,
//     determiners, prepositions, conjunctions, auxiliaries, numbers, dates) and common verbs,
//     nouns and adjectives. Proper names, places, organisations, teams, phrasal verbs and
//     idioms are left out: they are most of its size, and a sentence's heads never read them;
//     words it no longer knows are tagged by compromise's suffix and context rules and shown
//     as "guessed". Measured on the tagged sample (tests/js/page/sentence-sample.mjs), see the
//     README, "Your own sentence";
//   - `attention-lab:animate-words` is the WordNet list of people and animals
//     (scripts/build-animacy.mjs), made at build time.
// The bundle must stay within TAGGER_BUDGET bytes gzipped (tests/js/page/sentence-tagger.test.mjs).
//
//   buildSentenceTagger({ outfile }) → { bytes, gzipBytes }

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { animateWords } from './build-animacy.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const TAGGER_BUDGET = 80 * 1024;
export const TAGGER_ENTRY = join(ROOT, 'web/src/sentence-tagger.js');

// The lexicon's word classes the bundle keeps (compromise's tag names).
export const KEPT_WORD_CLASSES = Object.freeze([
  'Preposition', 'Conjunction', 'Determiner', 'Pronoun', 'Modal', 'Negative', 'QuestionWord', 'Possessive',
  'Reflexive', 'Cardinal', 'Ordinal', 'PastTense', 'Participle', 'Copula', 'Verb', 'Adverb', 'Condition', 'Date',
  'WeekDay', 'Month', 'Duration', 'Value', 'Multiple', 'Comparative', 'Superlative', 'PresentTense', 'Gerund',
  'Imperative', 'Plural', 'Plural|Verb', 'Honorific', 'Infinitive', 'Noun|Verb', 'Singular', 'Adjective', 'Comparable',
  'Adj|Present', 'Person|Noun',
]);

// compromise's package exports neither package.json nor src/: require() resolves builds/three/compromise-three.cjs.
function compromiseSource() {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('compromise')), '..', '..', 'src'); // builds/three/…cjs
}

/** The esbuild plugin the tagger bundle needs (see the head of this file). */
export function sentenceTaggerPlugin() {
  const source = compromiseSource();
  const kept = new Set(KEPT_WORD_CLASSES);
  return {
    name: 'sentence-tagger',
    setup(build) {
      build.onResolve({ filter: /^compromise-src\// }, (args) => ({ path: join(source, args.path.slice('compromise-src/'.length)) }));
      build.onResolve({ filter: /^attention-lab:animate-words$/ }, (args) => ({ path: args.path, namespace: 'animate-words' }));
      build.onLoad({ filter: /.*/, namespace: 'animate-words' }, () => ({
        contents: `export default ${JSON.stringify(animateWords().join('\n'))};`, loader: 'js',
      }));
      build.onLoad({ filter: /preTagger[\\/]model[\\/]lexicon[\\/]_data\.js$/ }, async (args) => {
        const data = (await import(pathToFileURL(args.path).href)).default;
        const trimmed = Object.fromEntries(Object.entries(data).filter(([wordClass]) => kept.has(wordClass)));
        return { contents: `export default ${JSON.stringify(trimmed)};`, loader: 'js' };
      });
    },
  };
}

export async function buildSentenceTagger({ outfile }) {
  const result = await esbuild.build({
    entryPoints: [TAGGER_ENTRY],
    outfile,
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022'],
    legalComments: 'eof',
    logLevel: 'warning',
    plugins: [sentenceTaggerPlugin()],
  });
  if (result.errors.length) throw new Error('esbuild failed on the sentence tagger');
  const bytes = readFileSync(outfile);
  return { bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
}

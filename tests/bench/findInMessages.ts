/**
 * Find in this conversation (issue 20): the cost of one search over a 2,000-message
 * conversation, the scan that runs once typing pauses (web/src/find/findInMessages.ts).
 * Prints, over 1,000 questions and 1,000 markdown replies (about 1.2 MB of text):
 * - the first search after the conversation loaded (each message's text folded once: case,
 *   accents, white space), measured on fresh message objects each run;
 * - a search after that (the folded texts are kept per message object), for a word of every question, a
 *   common one, one letter and a word that is not there;
 * - a search while a reply streams (one message is a new object each word).
 * Node's V8 on this machine; a phone with a 6× slower CPU takes about 6× as long.
 * Run: node --import tsx tests/bench/findInMessages.ts
 */
import { performance } from 'node:perf_hooks';
import { findInMessages } from '../../web/src/find/findInMessages';
import { STREAMED_REPLY } from '../browser/scriptedModel';
import { printTable, quantile } from './table';

const MESSAGES = 2000;
const RUNS = 30;

/** A conversation like the seeded ones: numbered questions (some accented) and long replies. */
function conversation(): { id: string; text: string }[] {
  return Array.from({ length: MESSAGES }, (_, i) =>
    i % 2 === 0
      ? {
          id: `m${i}`,
          text: `Où est le café près de la gare ? Can I read this from my laptop? (${i / 2 + 1})`,
        }
      : { id: `m${i}`, text: STREAMED_REPLY },
  );
}

/** Milliseconds of `run`, median and max over {@link RUNS} runs (each after `prepare`). */
function time(prepare: () => void, run: () => number): { median: number; max: number; matches: number } {
  const ms: number[] = [];
  let matches = 0;
  for (let i = 0; i < RUNS; i++) {
    prepare();
    const start = performance.now();
    matches = run();
    ms.push(performance.now() - start);
  }
  return { median: quantile(ms, 0.5), max: Math.max(...ms), matches };
}

const base = conversation();
const chars = base.reduce((sum, m) => sum + m.text.length, 0);
let messages = base;
const fresh = () => {
  messages = base.map((m) => ({ ...m }));
};
const same = () => {};
const streaming = () => {
  const last = messages.at(-1);
  if (last) messages = [...messages.slice(0, -1), { ...last, text: `${last.text} word` }];
};
fresh();
findInMessages(messages, 'warm the JIT');

const rows = [
  {
    search: 'first search (folds every message)',
    query: 'gare',
    ...time(fresh, () => findInMessages(messages, 'gare').length),
  },
  {
    search: 'a word of every question',
    query: 'cafe pres',
    ...time(same, () => findInMessages(messages, 'cafe pres').length),
  },
  {
    search: 'common word',
    query: 'snapshot',
    ...time(same, () => findInMessages(messages, 'snapshot').length),
  },
  { search: 'one letter', query: 'e', ...time(same, () => findInMessages(messages, 'e').length) },
  { search: 'not there', query: 'zurich', ...time(same, () => findInMessages(messages, 'zurich').length) },
  {
    search: 'while a reply streams',
    query: 'snapshot',
    ...time(streaming, () => findInMessages(messages, 'snapshot').length),
  },
];
printTable(
  `find in a ${MESSAGES.toLocaleString('en')}-message conversation (${(chars / 1e6).toFixed(2)} MB of text), ms over ${RUNS} runs`,
  rows.map(({ search, query, median, max, matches }) => ({
    search,
    query,
    'median ms': median,
    'max ms': max,
    matches,
  })),
);

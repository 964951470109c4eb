#!/usr/bin/env node
// `sheepfold-create-match`: creates one match and prints its id and seat tokens as JSON, a way to set up
// a match by hand for trying a bot (`sheepfold match` plays the seats itself instead).
import { arenaClient, checkAddress, ContractNotFound, endedWith, unary, writeOut } from '../src/index.js';
import { integer, parseFlags, seconds } from '../src/config.js';
import { commandWords, hideIpServerNameWarning, TLS_HELP, TLS_OPTIONS, tlsCredentials, tlsSetting } from '../src/tls-flags.js';
import { shown, UsageError, usageErrorText } from '../src/usage.js';
import { SEED_MAX } from '../src/rng.js';

/** The shortest and longest --decision-seconds but 0 (the server's default), as `sheepfold create` takes. */
const MIN_DECISION_SECONDS = 0.001;
const MAX_DECISION_SECONDS = 3600;

const USAGE = `usage: sheepfold-create-match --game NAME [--players N] [--option KEY=VALUE]...
                              [--seed N] [--decision-seconds S] [--server HOST:PORT]
                              [--tls] [--tls-ca FILE] [--admin-token T]

Prints {"match_id", "seed", "seat_tokens"} as one JSON line. --server defaults to
$SHEEPFOLD_SERVER or 127.0.0.1:50051, --admin-token to $SHEEPFOLD_ADMIN_TOKEN.
--seed is 0 to 18446744073709551615, --decision-seconds 0 (the server's default) or
0.001 to 3600; a number out of range or not a number is a usage error (exit 2).

${TLS_HELP}`;

/** A deadline the server takes: 0 or 0.001 to 3600 (it refuses a shorter one, which no bot could meet). */
function decisionSeconds(text) {
  const value = seconds('--decision-seconds', text, MAX_DECISION_SECONDS);
  if (value > 0 && value < MIN_DECISION_SECONDS) {
    throw new UsageError(`--decision-seconds must be 0 (the server's default) or ${MIN_DECISION_SECONDS} to ${MAX_DECISION_SECONDS}, got ${shown(text)}`);
  }
  return value;
}

const OPTIONS = {
  server: { type: 'string' },
  game: { type: 'string' },
  players: { type: 'string', default: '2' },
  option: { type: 'string', multiple: true, default: [] },
  seed: { type: 'string' },
  'decision-seconds': { type: 'string' },
  'admin-token': { type: 'string' },
  ...TLS_OPTIONS,
  help: { type: 'boolean', short: 'h' },
};

async function run() {
  const values = parseFlags(process.argv.slice(2), OPTIONS);
  if (values.help) {
    const failed = await writeOut(process.stdout, `${USAGE}\n`);
    if (failed) process.stderr.write(`sheepfold-create-match: cannot write the usage to stdout: ${failed.message}\n`);
    return failed ? 1 : 0;
  }
  if (!values.game) throw new UsageError('missing --game NAME');
  // No prototype: `options['__proto__'] = v` on a plain object set its prototype
  // and the option was never sent (the match was made with the defaults).
  const options = Object.create(null);
  for (const pair of values.option) {
    const at = pair.indexOf('=');
    if (at < 1) throw new UsageError(`--option wants KEY=VALUE, not ${shown(pair)}`);
    const [key, value] = [pair.slice(0, at), pair.slice(at + 1)];
    // As `sheepfold create`: the later value once won without a word.
    if (Object.hasOwn(options, key) && options[key] !== value) {
      throw new UsageError(`--option: ${key} given twice ('${options[key]}', then '${value}'): give it once`);
    }
    options[key] = value;
  }
  // Checked here, as `sheepfold create` does: on the wire "abc" would go as seed 0, 2^64 + x as seed x,
  // players "abc" as 0 and 2.5 as 2, and a malformed address would fail only when dialled.
  const request = {
    game: values.game,
    players: Number(integer('--players', values.players, { max: 2 ** 31 - 1 })),
    options,
    clock: { decision_seconds: values['decision-seconds'] === undefined ? 0 : decisionSeconds(values['decision-seconds']) },
    admin_token: values['admin-token'] ?? process.env.SHEEPFOLD_ADMIN_TOKEN ?? '',
  };
  if (values.seed !== undefined) request.seed = integer('--seed', values.seed, { max: SEED_MAX }).toString();
  const address = values.server ?? (process.env.SHEEPFOLD_SERVER || '127.0.0.1:50051');
  try {
    checkAddress(address);
  } catch (error) {
    throw new UsageError(`--server ${error.message}`);
  }
  const client = arenaClient(address, tlsCredentials(tlsSetting(address, values)));
  try {
    const created = await unary(client, 'CreateMatch', request);
    const made = `${JSON.stringify({ match_id: created.match_id, seed: created.seed, seat_tokens: created.seat_tokens })}\n`;
    const failed = await writeOut(process.stdout, made);
    if (failed) {
      // The match exists, but nobody can join it without its tokens.
      process.stderr.write(`sheepfold-create-match: cannot write the match to stdout: ${failed.message}\n`);
      return 1;
    }
    return 0;
  } catch (error) {
    process.stderr.write(`sheepfold-create-match: ${commandWords(endedWith(address, error.code, error.details ?? error.message))}\n`);
    return 1;
  } finally {
    client.close();
  }
}

hideIpServerNameWarning();
run().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    if (error instanceof UsageError) {
      process.stderr.write(usageErrorText('sheepfold-create-match', error.message));
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`sheepfold-create-match: ${error.message}\n`);
    process.exitCode = error instanceof ContractNotFound ? 1 : 2;
  },
);

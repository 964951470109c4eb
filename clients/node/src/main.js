// The command: parse the settings, play the seat with seeded random choices, print the result.
import { parseConfig, USAGE } from './config.js';
import { createLogger } from './log.js';
import { playSeat, SeatError, statusName } from './play.js';
import { ContractNotFound } from './proto.js';
import { createRng } from './rng.js';
import { commandWords, tlsCredentials } from './tls-flags.js';
import { UsageError, usageErrorText } from './usage.js';

/** The random strategy: a uniformly random legal action, reproducible from the seed. */
export function randomBot(seed) {
  const rng = createRng(seed);
  return (view) => rng.int(view.actions.length);
}

/** The final result as a plain JSON object (details_json parsed). */
export function resultToJson({ result, seat, game, matchId, reconnects }) {
  let details;
  try {
    details = result.details_json ? JSON.parse(result.details_json) : {};
  } catch {
    details = result.details_json;
  }
  return {
    match_id: matchId,
    game,
    seat,
    scores: result.scores,
    ranks: result.ranks,
    winners: result.winners,
    end_reason: result.end_reason,
    seats: result.seats,
    details,
    reconnects,
  };
}

/**
 * Writes `text` to a stream; resolves to the error that kept it from being written, or null. A stream whose write
 * fails (stdout to a full disk) also emits 'error', which unhandled would end the process with a stack trace.
 */
export function writeOut(stream, text) {
  if (typeof stream.on !== 'function') {
    stream.write(text); // a plain { write } sink
    return Promise.resolve(null);
  }
  return new Promise((resolve) => {
    stream.on('error', resolve); // kept: the same failure's 'error' event may follow the write's callback
    try {
      stream.write(text, (error) => resolve(error ?? null));
    } catch (error) {
      resolve(error);
    }
  });
}

/** Runs the bot; resolves to the exit status. */
export async function main(argv, env, { stdout = process.stdout, stderr = process.stderr } = {}) {
  let config;
  try {
    config = parseConfig(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    stderr.write(usageErrorText('sheepfold-node-bot', error.message));
    return 2;
  }
  if (config.help) {
    const failed = await writeOut(stdout, `${USAGE}\n`);
    if (failed) stderr.write(`sheepfold-node-bot: cannot write the usage to stdout: ${failed.message}\n`);
    return failed ? 1 : 0;
  }
  const log = createLogger({ level: config.logLevel, write: (line) => stderr.write(line) });
  try {
    const outcome = await playSeat({
      address: config.address,
      matchId: config.matchId,
      token: config.token,
      seat: config.seat,
      decide: randomBot(config.seed),
      log,
      maxReconnects: config.maxReconnects,
      rejoinSeconds: config.rejoinSeconds,
      maxMessageBytes: config.maxMessageBytes,
      credentials: tlsCredentials(config.tls),
    });
    const failed = await writeOut(stdout, `${JSON.stringify(resultToJson(outcome))}\n`);
    if (failed) {
      // The match was played, but its result is lost to whoever reads stdout: not a success (as `sheepfold bot`).
      stderr.write(`sheepfold-node-bot: cannot write the result to stdout: ${failed.message}\n`);
      return 1;
    }
    return 0;
  } catch (error) {
    if (error instanceof ContractNotFound) {
      stderr.write(`sheepfold-node-bot: ${error.message}\n`);
      return 1;
    }
    if (!(error instanceof SeatError)) throw error;
    log.error('seat lost', { match_id: config.matchId, code: statusName(error.code), message: commandWords(error.details) });
    stderr.write(`sheepfold-node-bot: ${commandWords(error.message)}\n`);
    return 1;
  }
}

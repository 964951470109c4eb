// Plays one seat of a match over the Play stream, to the end, rejoining when the
// connection drops. The strategy is a function `decide(view) -> index`.
import { arenaClient, checkMessageBytes, DEFAULT_MAX_MESSAGE_BYTES, grpc, unary } from './proto.js';
import { silentLogger } from './log.js';
import { checkAddress } from './address.js';
import { misconfigured, ourWords } from './reason.js';

const { status } = grpc;

/** Codes after which rejoining makes sense: the server or the network went away. */
export const RETRYABLE = new Set([status.UNAVAILABLE, status.UNKNOWN, status.INTERNAL]);

/**
 * Also worth another join while the server has not acknowledged this stream's join (as in clients/sdk.py):
 * a server or proxy under a burst of streams may cancel a stream before it starts, a server pushes out
 * Play streams beyond its bound on joins pending from one address (RESOURCE_EXHAUSTED), as when every bot
 * rejoins a restarted server at once, and ends a stream whose join did not arrive in time
 * (DEADLINE_EXCEEDED). Once the stream's join is acknowledged, they are final.
 */
export const RETRYABLE_BEFORE_JOINED = new Set([
  ...RETRYABLE,
  status.CANCELLED,
  status.RESOURCE_EXHAUSTED,
  status.DEADLINE_EXCEEDED,
]);

/**
 * Whether a stream that failed with `code` is worth joining again; `joined`: the server acknowledged that
 * stream's join (a seat that joined before a restart is not joined on the next stream).
 */
export function shouldRejoin(code, joined, details = '') {
  if (tooLarge(code, details)) return false;
  return (joined ? RETRYABLE : RETRYABLE_BEFORE_JOINED).has(code);
}

/**
 * gRPC's words for a message past its receiver's limit ("Received message larger than max (20044 vs. 16384)"):
 * a join the server refused for its size (a match id or token far too long) is refused again however often
 * sent, so it is final, as in clients/sdk.py.
 */
export const TOO_LARGE = 'Received message larger than max';
export const TOO_LARGE_HINT = 'the join is larger than the server takes; check the match id and token';

/** Whether the server refused the request for its size. */
export function tooLarge(code, details) {
  return code === status.RESOURCE_EXHAUSTED && String(details ?? '').includes(TOO_LARGE);
}

/** The name of a numeric gRPC status code, as PlayError carries it (3 -> "INVALID_ARGUMENT"). */
export function statusName(code) {
  return Object.keys(status).find((name) => status[name] === code) ?? `CODE_${code}`;
}

/**
 * How a call that failed with `code` ended, as the log, the give-up message and create-match.js say it:
 * grpc-js's own words for a lost or failed connection in ours ("the game server at ADDR went away", as
 * clients/connect.py's went_away), UNIMPLEMENTED with what it means (`ourWords`).
 */
export function endedWith(address, code, details) {
  return `${statusName(code)}: ${ourWords(address, code, details)}`;
}

/** The server refused the seat for good (bad token, wrong seat, replaced by a newer join...). */
export class SeatError extends Error {
  /** `options.cause`: the bot's own error, when its `decide` or `onEvent` threw one (Node prints it too). */
  constructor(code, details, options = undefined) {
    super(`${statusName(code)}: ${details}`, options);
    this.name = 'SeatError';
    this.code = code;
    this.details = details;
  }
}

/**
 * What `decide` returned, as an answer carries it: a whole number within the wire's int32
 * (a number or a bigint). Anything else throws, and the seat ends with "the bot failed":
 * sent as it was, 1.5 would have become 1 and "two" or undefined 0, a move the bot never chose.
 * An index below 0 or past the last action is sent: the server refuses it (INVALID_ARGUMENT)
 * and asks the same decision again.
 */
export function actionIndex(choice) {
  const whole = typeof choice === 'bigint' || (typeof choice === 'number' && Number.isInteger(choice));
  if (!whole || choice < -(2 ** 31) || choice >= 2 ** 31) {
    const shown = typeof choice === 'string' ? JSON.stringify(choice) : String(choice);
    // A whole number past int32 is one: say why it is refused, as the Python SDK does.
    const why = whole ? `past the wire's int32: ${-(2 ** 31)} to ${2 ** 31 - 1}` : 'a whole number';
    throw new TypeError(`decide returned ${shown.slice(0, 80)}, not an action index (${why})`);
  }
  return Number(choice);
}

/** What `decide` receives: the decision with its game-specific observation and typed actions. */
export function decisionView(decision, game, options = {}) {
  const observation = decision.observation?.game ? decision.observation[decision.observation.game] : null;
  return {
    decisionId: decision.decision_id,
    seat: decision.seat,
    game,
    prompt: decision.prompt,
    observation,
    actions: decision.actions.map((legal) => ({
      label: legal.label,
      action: legal.action?.game ? legal.action[legal.action.game] : null,
    })),
    clock: decision.clock,
    // The match's options as Joined gives them: every option, defaults filled in, as strings.
    options,
    raw: decision,
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How long, by default, a seat keeps joining again once its server has gone (a restart), from the first
 * attempt that failed; as clients/sdk.py's rejoin_seconds.
 */
export const REJOIN_SECONDS = 90;

/**
 * The attempts to join again in a row since the seat was last in play, and when they began: whether to
 * give up, and the line that says so. Time, not a count, bounds them by default: refused joins come back
 * within milliseconds and a mute server's after joinTimeoutMs, so a count lasted anywhere from 30 s to minutes.
 * A join the server answers is not yet play (as in clients/sdk.py): a server that answers every join and
 * then drops the stream (a crash loop, a proxy cutting it) is given up on after rejoinSeconds, not for ever.
 */
class Rejoins {
  constructor(maxAttempts, seconds) {
    this.maxAttempts = maxAttempts;
    this.seconds = seconds;
    this.attempts = 0;
    this.since = null;
  }

  /** The stream ended without a result; `played`: it was back in play after its join, so a new outage begins. */
  lost(played) {
    if (played) [this.attempts, this.since] = [0, null];
    this.since ??= performance.now();
  }

  tooMany() {
    return this.maxAttempts !== null && this.attempts >= this.maxAttempts;
  }

  over() {
    return this.tooMany() || performance.now() - this.since >= this.seconds * 1000;
  }

  gaveUp(why) {
    const said = `${why}; gave up after ${this.attempts} attempt${this.attempts === 1 ? '' : 's'} to join again`;
    if (this.tooMany()) return said;
    return `${said} over ${this.seconds} s (rejoinSeconds, \`sheepfold-node-bot --rejoin-seconds\`): raise it to wait longer for a server that restarts`;
  }
}

/**
 * How long a Play stream may wait for the server to answer its join. A server that accepts the TCP
 * connection but never speaks (a frozen process, a port that is not gRPC) would otherwise hold the
 * bot for ever: grpc-js queues the call while the connection is "connecting", with no deadline.
 */
export const JOIN_TIMEOUT_MS = 10_000;

/**
 * How long a stream that has sent its result is waited for to end (clients/sdk.py's STATUS_SECONDS). The
 * result is final either way; the status is waited for so that the server's is not sent to a call already
 * cancelled, but a server or proxy that never ends the stream must not keep the bot from its result for ever.
 */
export const STATUS_TIMEOUT_MS = 5_000;

/**
 * Play one seat to the end of the match.
 *
 * options: address (host:port), matchId, token, seat (optional), decide(view) -> index
 * (may return a promise), onEvent(event) (optional; may return a promise, awaited), log, rejoinSeconds (how long to keep
 * joining again once the server has gone, from the first failed attempt; default 90; each
 * outage, ended once the seat is back in play, gets its own), maxReconnects (optional: consecutive
 * failed attempts that end it sooner), backoffMs / maxBackoffMs, joinTimeoutMs (how long
 * each stream waits for the join's answer, default 10 s), statusTimeoutMs (how long a stream that has sent
 * the result is waited for to end before the bot leaves it with that result, default 5 s), lookMs (how long GetMatch is
 * waited for when the bot only looks for something it can do without, default LOOK_MS), credentials, client, maxMessageBytes
 * (the largest message received: 4 MiB by default, as a server sends by default; at least 1 MiB;
 * raise it to a server's larger `--max-message-bytes`, whose decisions may pass 4 MiB),
 * eventsInDecisions (default true: the server sends this seat's events inside its next
 * decision, one message per decision; onEvent still sees every event, in order, before
 * the decision that follows it).
 * Resolves to { result, seat, game, matchId, reconnects } (reconnects: successful rejoins);
 * rejects with SeatError.
 */
export async function playSeat(options) {
  const {
    address,
    matchId,
    token,
    seat = null,
    decide,
    onEvent = null,
    eventsInDecisions = true,
    log: baseLog = silentLogger,
    maxReconnects = null,
    rejoinSeconds = REJOIN_SECONDS,
    backoffMs = 100,
    maxBackoffMs = 2_000,
    joinTimeoutMs = JOIN_TIMEOUT_MS,
    statusTimeoutMs = STATUS_TIMEOUT_MS,
    lookMs = LOOK_MS,
    credentials,
    maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES,
  } = options;
  if (seat !== null && seat !== undefined && !(Number.isInteger(seat) && seat >= -(2 ** 31) && seat < 2 ** 31)) {
    // The wire carries a seat as an int32: 4294967296 would wrap round to seat 0. Say so before connecting.
    throw new RangeError(`seat ${String(seat).slice(0, 40)} is out of range: a seat is a 32-bit signed whole number`);
  }
  for (const [name, value] of [['matchId', matchId], ['token', token]]) {
    // Unset (SHEEPFOLD_MATCH missing from the environment) it would go as "", and the server say "no match ''".
    if (typeof value !== 'string' || !value) {
      throw new TypeError(`${name} must be a string that is not empty, not ${value === '' ? '""' : String(value).slice(0, 40)}`);
    }
  }
  if (typeof decide !== 'function') {
    // Said before joining: it would otherwise take the seat and fail at the first decision.
    throw new TypeError(`decide must be a function (view) -> action index, not ${String(decide).slice(0, 40)}`);
  }
  if (typeof rejoinSeconds !== 'number' || !(rejoinSeconds >= 0)) {
    throw new RangeError(`rejoinSeconds must be a number of seconds, 0 or more, not ${String(rejoinSeconds).slice(0, 40)}`);
  }
  if (maxReconnects !== null && maxReconnects !== undefined && !(Number.isInteger(maxReconnects) && maxReconnects >= 0)) {
    throw new RangeError(`maxReconnects must be a whole number, 0 or more, not ${String(maxReconnects).slice(0, 40)}`);
  }
  checkMessageBytes(maxMessageBytes);
  // A malformed address is the caller's mistake, not an unreachable server: say so before connecting.
  if (!options.client) checkAddress(address);
  const client = options.client ?? arenaClient(address, credentials, { maxMessageBytes });
  const session = { game: '', options: {}, seat, log: baseLog.bind({ match_id: matchId }), reconnects: 0, joinedOnce: false };
  const rejoins = new Rejoins(maxReconnects ?? null, rejoinSeconds);
  try {
    for (;;) {
      let outcome;
      try {
        outcome = await playStream(
          client,
          { address, matchId, token, seat, decide, onEvent, eventsInDecisions, joinTimeoutMs, statusTimeoutMs },
          session,
        );
      } catch (error) {
        if (error instanceof SeatError) throw error; // the bot's own failure: no rejoin helps
        const code = error.code ?? status.UNKNOWN;
        if (code === status.FAILED_PRECONDITION) {
          // "the match is over": it ended while we were away, or before this bot started
          // (as clients/sdk.py does for the same case); its result is still there.
          const finished = await finishedResult(client, matchId, session, lookMs);
          if (finished) return summary(finished, session, matchId);
        }
        const details = error.details ?? String(error.message);
        if (!shouldRejoin(code, error.joinedThisStream === true, details)) {
          throw new SeatError(code, tooLarge(code, details) ? `${details}: ${TOO_LARGE_HINT}` : ourWords(address, code, details));
        }
        outcome = {
          ended: endedWith(address, code, error.details ?? error.message),
          code,
          joined: error.joinedThisStream === true,
          played: error.playedThisStream === true,
        };
      }
      if (outcome.result) return summary(outcome.result, session, matchId);
      if (!session.joinedOnce && misconfigured(outcome.ended)) {
        // Never joined, and the connection's settings are wrong (TLS on one side only, a port that does not
        // speak gRPC): the same answer would come for rejoinSeconds. A seat that has joined keeps rejoining.
        const code = outcome.code ?? status.UNAVAILABLE;
        throw new SeatError(code, outcome.ended.slice(`${statusName(code)}: `.length));
      }
      // grpc may report a stream that a newer join replaced (ABORTED) as INTERNAL when a write failed as it
      // ended (grpc/grpc#36066): rejoining would take the seat back from the newer stream, which may do the
      // same back. So, as clients/sdk.py does, GetMatch is asked first: a seat another stream holds stops here.
      if (outcome.code === status.INTERNAL && outcome.joined && (await seatTaken(client, matchId, session.seat, SEAT_RECHECK_MS, lookMs))) {
        session.log.warning('the stream ended INTERNAL and another stream holds the seat: stopping as replaced', {
          details: outcome.details,
        });
        throw new SeatError(status.ABORTED, replaced(session.seat));
      }
      rejoins.lost(outcome.played === true); // back in play: start the backoff and the clock afresh
      if (rejoins.over()) {
        // Said once: "UNAVAILABLE: connection refused; gave up ...", not "UNAVAILABLE: UNAVAILABLE: ...".
        const unavailable = `${statusName(status.UNAVAILABLE)}: `;
        const why = outcome.ended.startsWith(unavailable) ? outcome.ended.slice(unavailable.length) : outcome.ended;
        throw new SeatError(status.UNAVAILABLE, rejoins.gaveUp(why));
      }
      const delay = Math.min(backoffMs * 2 ** rejoins.attempts, maxBackoffMs);
      rejoins.attempts += 1;
      session.log.warning('connection lost, rejoining', { reason: outcome.ended, attempt: rejoins.attempts, delay_ms: delay });
      await sleep(delay * (0.75 + Math.random() / 2));
    }
  } finally {
    if (!options.client) client.close();
  }
}

function summary(result, session, matchId) {
  return { result, seat: session.seat, game: session.game, matchId, reconnects: session.reconnects };
}

async function finishedResult(client, matchId, session, lookMs = LOOK_MS) {
  try {
    const info = await unary(client, 'GetMatch', { match_id: matchId }, lookMs);
    if (info.status === 'MATCH_STATUS_FINISHED' && info.result) {
      session.log.warning(
        session.joinedOnce
          ? 'the match ended while this seat was away; taking its result from GetMatch'
          : 'the match was already over when this seat first joined; taking its result from GetMatch',
      );
      // Never joined: the game comes from GetMatch; the seat stays the one asked for (null: the token's).
      session.game ||= info.game;
      return info.result;
    }
  } catch (error) {
    session.log.warning('GetMatch failed', { code: statusName(error.code), message: error.details });
  }
  return null;
}

/** What the server says when it ends a stream that a newer join replaced (ABORTED). */
export function replaced(seat) {
  return `replaced by a newer join for seat ${seat}`;
}

/** How long `seatTaken` waits before it looks at a connected seat again (clients/sdk.py's SEAT_RECHECK_SECONDS). */
export const SEAT_RECHECK_MS = 500;

/**
 * How long a look at GetMatch that the bot can do without waits (clients/connect.py's LOOK_SECONDS): each of
 * `seatTaken`'s, and the one for the finished result after FAILED_PRECONDITION. A server that has gone silent
 * (it accepts the connection and answers nothing) fails the look in this time, and the bot goes on as it would
 * have without asking: it rejoins, or ends with the stream's own error. Every other unary call waits 10 s.
 */
export const LOOK_MS = 5_000;

/**
 * Whether another stream holds `seat` now, as GetMatch (no token needed) shows it: connected on two looks
 * SEAT_RECHECK_MS apart, each waiting `lookMs` at most for GetMatch. A replaced stream's seat is connected to
 * the newer stream from the moment it joined; a stream the server ended for any other reason leaves the seat
 * unconnected before its status is sent, and one the server has yet to notice is gone leaves it connected a
 * little longer, hence the second look.
 * False when GetMatch fails or is refused: the caller rejoins, as it would without asking.
 */
export async function seatTaken(client, matchId, seat, recheckMs = SEAT_RECHECK_MS, lookMs = LOOK_MS) {
  if (seat === null || seat === undefined) return false;
  for (let look = 0; look < 2; look += 1) {
    if (look) await sleep(recheckMs);
    let info;
    try {
      info = await unary(client, 'GetMatch', { match_id: matchId }, lookMs);
    } catch {
      return false;
    }
    const held = (info?.seats ?? []).find((entry) => entry.seat === seat);
    if (!held?.connected) return false;
  }
  return true;
}

/**
 * One Play stream: join, answer decisions, until the result or the stream ends.
 * Resolves { result } or { ended, code, details, joined, played } (code: the gRPC status it failed with,
 * none when it ended OK; played: a decision, event or result came after the join); rejects with the gRPC
 * error when the stream fails, `joinedThisStream` and `playedThisStream` set.
 */
function playStream(client, { address, matchId, token, seat, decide, onEvent, eventsInDecisions, joinTimeoutMs, statusTimeoutMs }, session) {
  return new Promise((resolve, reject) => {
    const call = client.Play();
    let joined = false;
    // Noted on arrival, as clients/sdk.py does: a decision still queued behind a slow `decide` counts.
    let answered = false;
    let played = false;
    let result = null;
    let settled = false;
    // Messages are handled one at a time, in order, even when `decide` is async.
    let queue = Promise.resolve();

    // Set once this stream ended without a result: what it still has queued (a decision the server
    // has moved past, events a rejoined stream has already overtaken) is neither decided nor shown.
    let abandoned = false;

    // No answer to the join in time: give up this stream and join again on a new one (with backoff).
    const joinTimer = setTimeout(() => {
      settle(resolve, { ended: `UNAVAILABLE: the server did not answer the join within ${joinTimeoutMs / 1000} s`, joined: false });
      call.cancel();
    }, joinTimeoutMs);

    // Set once the result has come: the stream's end is waited for statusTimeoutMs at most.
    let statusTimer = null;

    const settle = (fn, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(joinTimer);
      clearTimeout(statusTimer);
      if (!value?.result) abandoned = true;
      fn(value);
    };

    const answer = async (decision) => {
      const view = decisionView(decision, session.game, session.options);
      const index = actionIndex(await decide(view));
      session.log.debug('answering', { decision_id: view.decisionId, index, label: view.actions[index]?.label });
      if (!settled && !call.writableEnded && !call.destroyed) {
        call.write({ answer: { decision_id: decision.decision_id, action_index: index } });
      }
    };

    const handle = async (message) => {
      switch (message.kind) {
        case 'joined':
          joined = true;
          if (session.joinedOnce) session.reconnects += 1; // counts successful rejoins
          session.joinedOnce = true;
          session.game = message.joined.game;
          session.options = { ...message.joined.options };
          session.seat = message.joined.seat;
          session.log = session.log.bind({ seat: message.joined.seat, game: message.joined.game });
          session.log.info('joined', { players: message.joined.players, options: message.joined.options });
          break;
        case 'decision':
          if (onEvent) for (const event of message.decision.events ?? []) await onEvent(event); // an async one too
          // The result came while the bot thought about an earlier decision (as clients/sdk.py): the match is
          // over, and this one can no longer be answered; deciding it would only keep the bot busy after the end.
          if (result === null) await answer(message.decision);
          break;
        case 'event':
          if (onEvent) await onEvent(message.event);
          break;
        case 'error':
          // The match goes on. INVALID_ARGUMENT: the server sends the same decision again.
          // FAILED_PRECONDITION: stale id or not our turn; DEADLINE_EXCEEDED: a random move was played for us.
          session.log.warning('server refused an answer', {
            code: statusName(message.error.code),
            message: message.error.message,
            decision_id: message.error.decision_id,
          });
          break;
        case 'result':
          session.log.info('match over', { ranks: message.result.ranks, scores: message.result.scores });
          call.end();
          break;
        default:
          session.log.warning('unknown message on the Play stream', { kind: message.kind });
      }
    };

    call.on('data', (message) => {
      // Noted on arrival, not after the queue: a stream that fails right after its result still counts.
      if (message.kind === 'result') {
        result = message.result;
        statusTimer ??= setTimeout(() => {
          session.log.warning('the stream did not end after its result; leaving it', { waited_ms: statusTimeoutMs });
          settle(resolve, { result });
          call.cancel();
        }, statusTimeoutMs);
      }
      if (message.kind === 'joined') {
        clearTimeout(joinTimer); // answered: the join timeout is over
        answered = true;
      } else if (answered && message.kind !== 'error') played = true;
      queue = queue.then(() => (abandoned ? undefined : handle(message))).catch((error) => {
        session.log.error('the bot failed on a message', { message: String(error?.stack ?? error) });
        settle(reject, new SeatError(status.CANCELLED, `the bot failed: ${error?.message ?? error}`, { cause: error }));
        call.cancel();
      });
    });
    // Not waiting for the queue here: a `decide` still thinking must not hold up a rejoin.
    call.on('status', (st) => {
      if (result) settle(resolve, { result });
      else if (st.code === status.OK) settle(resolve, { ended: 'the stream ended without a result', joined, played });
    });
    call.on('error', (error) => {
      if (result) settle(resolve, { result });
      else if (joined && RETRYABLE.has(error.code)) {
        settle(resolve, { ended: endedWith(address, error.code, error.details), code: error.code, details: error.details, joined, played });
      }
      else settle(reject, Object.assign(error, { joinedThisStream: joined, playedThisStream: played }));
    });

    const join = { match_id: matchId, token, events_in_decisions: eventsInDecisions };
    if (seat !== null && seat !== undefined) join.seat = seat;
    call.write({ join });
  });
}

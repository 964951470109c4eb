// The Sheepfold Node.js bot as a library: bring your own `decide(view) -> index`.
export { playSeat, endedWith, REJOIN_SECONDS, actionIndex, decisionView, SeatError, RETRYABLE, RETRYABLE_BEFORE_JOINED, shouldRejoin, statusName, seatTaken, SEAT_RECHECK_MS, LOOK_MS } from './play.js';
export { arenaClient, checkMessageBytes, ContractNotFound, loadSheepfold, unary, PROTO_DIR, ARENA_PROTO, DEFAULT_MAX_MESSAGE_BYTES, MIN_MAX_MESSAGE_BYTES, grpc } from './proto.js';
export { createRng } from './rng.js';
export { checkAddress } from './address.js';
export { createLogger, silentLogger } from './log.js';
export { parseConfig, USAGE } from './config.js';
export { UsageError } from './usage.js';
export { resultToJson, randomBot, main, writeOut } from './main.js';
export { connectionTrouble, ourWords, NOT_A_GAME_PORT } from './reason.js';

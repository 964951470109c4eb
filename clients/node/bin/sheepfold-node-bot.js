#!/usr/bin/env node
// Entry point: `node bin/sheepfold-node-bot.js --match ID --token TOKEN` (see --help).
import { main } from '../src/main.js';

// grpc-js gives Node an IP address (--server 127.0.0.1:PORT --tls-ca FILE) as the TLS server name, which Node
// ignores with a DEP0123 warning of its own on stderr, among the JSON log lines: the certificate is still checked
// against that address, and the command's user can do nothing about it.
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) => {
  const code = typeof rest[0] === 'object' ? rest[0]?.code : rest[1];
  if (code !== 'DEP0123') emitWarning.call(process, warning, ...rest);
};

main(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`sheepfold-node-bot: unexpected failure: ${error?.stack ?? error}\n`);
    process.exitCode = 1;
  },
);
